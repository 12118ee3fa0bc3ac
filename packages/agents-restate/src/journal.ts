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

/**
 * A turn's steps as journal entries of its invocation (`ctx.run`, at most 3 attempts). A step's
 * answer is used as soon as its run has ended and its entry is on its way, while Restate
 * acknowledges it. A step that is not read-only (a call that may write, the approval ids a person
 * will be told) first waits until Restate has acknowledged every step before it: it never runs on a
 * model step's answer a crash could lose. A crash before an acknowledgement runs that step again
 * (a model step may then answer otherwise), and every step after it: only read-only ones can have
 * run meanwhile.
 */
export class TurnSteps {
  readonly #ctx: restate.Context;
  /** Entries whose acknowledgement nobody has waited for yet. */
  #unacknowledged: restate.RestatePromise<unknown>[] = [];

  constructor(ctx: restate.Context) {
    this.#ctx = ctx;
  }

  /** Runs step `name` (see the class). */
  async run<T>(name: string, run: () => Promise<T>, step: TurnStep): Promise<T> {
    if (!step.readOnly) await this.acknowledged();
    const ended = Promise.withResolvers<T>();
    const entry = this.#ctx.run(
      name,
      async () => {
        const answer = await run();
        ended.resolve(answer);
        return answer;
      },
      { maxRetryAttempts: 3 },
    );
    this.#unacknowledged.push(entry);
    // As the journal gives it back (JSON), whether from this run or, replayed, from the entry.
    const answered = ended.promise.then((answer) => (answer === undefined ? answer : (JSON.parse(JSON.stringify(answer)) as T)));
    return restate.RestatePromise.race([entry, restate.RestatePromise.resolve(answered)]);
  }

  /** Settles once Restate has acknowledged every step run so far: before anyone outside the turn is told of them. */
  async acknowledged(): Promise<void> {
    const entries = this.#unacknowledged.splice(0);
    if (entries.length > 0) await restate.RestatePromise.all(entries);
  }
}
