import type { TurnJournal } from '@nexus/agents';
import * as restate from '@restatedev/restate-sdk';

/**
 * Runs each step of `journal` once the one before it has settled. Restate's SDK (1.17) drives one
 * awaited journal entry at a time: two awaited at once (a step's read-only calls, which the agent
 * runs together) fail the attempt with "awaitNext already pending", and the invocation's next
 * attempt runs the calls again.
 */
export function oneAtATime(journal: TurnJournal): TurnJournal {
  let previous: Promise<unknown> = Promise.resolve();
  return (name, run) => {
    const step = previous.then(() => journal(name, run));
    previous = step.catch(() => undefined);
    return step;
  };
}

/**
 * Runs step `name` of turn `requestId` as a journal entry of the invocation (`ctx.run`, at most 3
 * attempts). A model step's answer is used once Restate has acknowledged its entry: the tool calls
 * it asks must not run on an answer a crash could lose. A tool call's answer is used as soon as its
 * run has ended and its entry is on its way, while Restate acknowledges it: the next journaled step
 * waits for its own acknowledgement, which comes after this one (the journal is in order), and a
 * crash in between runs the call again as a crash before the acknowledgement always did.
 */
export function journalStep<T>(ctx: restate.Context, requestId: string, name: string, run: () => Promise<T>): Promise<T> {
  const options = { maxRetryAttempts: 3 };
  if (!name.startsWith(`${requestId} tool call `)) return ctx.run(name, run, options);
  const ended = Promise.withResolvers<T>();
  const entry = ctx.run(
    name,
    async () => {
      const answer = await run();
      ended.resolve(answer);
      return answer;
    },
    options,
  );
  // As the journal gives it back (JSON), whether from this run or, replayed, from the entry.
  const answered = ended.promise.then((answer) => (answer === undefined ? answer : (JSON.parse(JSON.stringify(answer)) as T)));
  return restate.RestatePromise.race([entry, restate.RestatePromise.resolve(answered)]);
}
