import type { TurnJournal, TurnStep } from '@nexus/agents';
import * as restate from '@restatedev/restate-sdk';

/**
 * Runs each step of `journal` once the one before it has settled. Restate's SDK (1.17) drives one
 * awaited journal entry at a time: two awaited at once (a step's read-only calls, which the agent
 * runs together) fail the attempt with "awaitNext already pending", and the invocation's next
 * attempt runs the calls again.
 */
export function oneAtATime(journal: TurnJournal): TurnJournal {
  let previous: Promise<unknown> = Promise.resolve();
  return (name, run, step) => {
    const next = previous.then(() => journal(name, run, step));
    previous = next.catch(() => undefined);
    return next;
  };
}

/** A model step's journal entry: its answer and the answers of the read-only calls it asked, by step name. */
interface ModelStepEntry {
  readonly answer: unknown;
  readonly calls: Record<string, unknown>;
}

/** The model step whose entry is still open: the read-only calls run on its answer join it. */
interface OpenModelStep {
  readonly calls: Record<string, unknown>;
  close(): void;
}

/** A step's answer as the journal gives it back (JSON), whether from this run or from the entry. */
function asJournaled<T>(answer: T): T {
  return answer === undefined ? answer : (JSON.parse(JSON.stringify(answer)) as T);
}

/**
 * A turn's steps as journal entries of its invocation (`ctx.run`, at most 3 attempts). A model
 * step's entry holds its answer and the answers of the read-only calls run on it (one entry, not
 * one each: every entry costs the server and the SDK work); every other step is an entry of
 * its own, and so is each call of a model step that asks a write (its answer is recorded at once).
 * A step's answer is used as soon as its run has ended, while Restate acknowledges its
 * entry. A step that is not read-only (a call that may write, the approval ids a person will be
 * told) first closes the open model step and waits until Restate has acknowledged every step before
 * it: it never runs on a model step's answer a crash could lose. A crash before an acknowledgement
 * runs that step again (a model step may then answer otherwise, and its read-only calls run again),
 * and every step after it: only read-only ones can have run meanwhile. {@link close} before the
 * invocation ends.
 */
export class TurnSteps {
  readonly #ctx: restate.Context;
  /** Entries whose acknowledgement nobody has waited for yet. */
  #unacknowledged: restate.RestatePromise<unknown>[] = [];
  #open: OpenModelStep | undefined;
  /** The read-only calls' answers of the model step last taken from the journal (a replay). */
  #replayed: Record<string, unknown> = {};
  /** A step has run in this attempt: the journal holds none of the steps after it, so they start at once (see {@link #started}). */
  #live = false;

  /** Whether a model step's answer asks a call that may write: then its entry is not kept open for read-only calls. */
  readonly #asksWrite: (answer: unknown) => boolean;

  constructor(ctx: restate.Context, asksWrite: (answer: unknown) => boolean) {
    this.#ctx = ctx;
    this.#asksWrite = asksWrite;
  }

  /** Runs step `name` (see the class). */
  async run<T>(name: string, run: () => Promise<T>, step: TurnStep): Promise<T> {
    if (step.kind === 'tool call' && step.readOnly) {
      if (name in this.#replayed) return this.#replayed[name] as T;
      const open = this.#open;
      if (open) {
        const answer = await run();
        open.calls[name] = answer;
        return asJournaled(answer);
      }
    }
    this.#replayed = {};
    if (step.readOnly) await this.close();
    else await this.acknowledged();
    return step.kind === 'model step' ? this.#modelStep(name, run) : this.#entry(name, run);
  }

  /**
   * Ends the open model step's entry: nothing more joins it. Settles once its answer is on its way,
   * before any later journal entry: a crash between them would leave a later entry that a replay
   * (asking the model again) might never reach.
   */
  async close(): Promise<void> {
    // The SDK proposes the entry's answer in the promise jobs that follow its run's return: Node runs them all before a next tick.
    if (this.#closeOpen()) await new Promise((settled) => process.nextTick(settled));
  }

  /** Settles once Restate has acknowledged every step run so far: before anyone outside the turn is told of them. */
  async acknowledged(): Promise<void> {
    // No later entry can exist before the open one is acknowledged: no need to wait for its answer to be on its way.
    this.#closeOpen();
    const entries = this.#unacknowledged.splice(0);
    if (entries.length > 0) await restate.RestatePromise.all(entries);
  }

  /** Closes the open model step's entry, if any; whether there was one. */
  #closeOpen(): boolean {
    const open = this.#open;
    this.#open = undefined;
    open?.close();
    return open !== undefined;
  }

  async #modelStep<T>(name: string, run: () => Promise<T>): Promise<T> {
    const closed = Promise.withResolvers<void>();
    const open: OpenModelStep = { calls: {}, close: closed.resolve };
    const ended = Promise.withResolvers<T>();
    const entry = this.#record(name, run, async (answer): Promise<ModelStepEntry> => {
      ended.resolve(answer);
      // A write waits for this answer's acknowledgement: recorded at once, the read-only calls before it get entries of their own.
      if (this.#asksWrite(answer)) return { answer, calls: {} };
      this.#open = open;
      await closed.promise;
      return { answer, calls: open.calls };
    });
    const answered = ended.promise.then((answer) => ({ answer: asJournaled(answer), calls: undefined }));
    const taken: { answer: unknown; calls: Record<string, unknown> | undefined } = await restate.RestatePromise.race([
      entry,
      restate.RestatePromise.resolve(answered),
    ]);
    if (taken.calls) this.#replayed = taken.calls;
    return taken.answer as T;
  }

  async #entry<T>(name: string, run: () => Promise<T>): Promise<T> {
    const ended = Promise.withResolvers<T>();
    const entry = this.#record(name, run, async (answer) => {
      ended.resolve(answer);
      return answer;
    });
    return restate.RestatePromise.race([entry, restate.RestatePromise.resolve(ended.promise.then(asJournaled))]);
  }

  /** Step `name` as a journal entry (`ctx.run`, at most 3 attempts) of what `entryOf` makes of `run`'s answer, to be acknowledged. */
  #record<T, E>(name: string, run: () => Promise<T>, entryOf: (answer: T) => Promise<E>): restate.RestatePromise<E> {
    const started = this.#started(run);
    const entry = this.#ctx.run(name, async () => entryOf(await started()), { maxRetryAttempts: 3 });
    this.#unacknowledged.push(entry);
    return entry;
  }

  /**
   * The run a step's `ctx.run` is given. Once a step has run in this attempt, the next ones are
   * new to the journal: their run starts now, not when the SDK gets to it (after a `setImmediate`,
   * ~0.2 ms a step); the SDK's first call takes that run, a retry runs again. Before, a step may be
   * in the journal, and the SDK starts its run only when it is not.
   */
  #started<T>(run: () => Promise<T>): () => Promise<T> {
    let early = this.#live ? run() : undefined;
    // Its failure is the SDK's to see when it takes the run, not an unhandled rejection before.
    early?.catch(() => {});
    return () => {
      this.#live = true;
      const taken = early ?? run();
      early = undefined;
      return taken;
    };
  }
}
