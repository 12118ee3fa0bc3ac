import type { TurnJournal } from '@nexus/agents';

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
