import { setTimeout as delay } from 'node:timers/promises';
import { defineSkill, type SkillFamily, ToolResult } from '@nexus/core';

/** Arguments of {@link echoSkill}. */
export interface EchoArguments {
  /** Text to return. */
  message: string;
}

/** Echoes its `message`: the smallest possible skill, for wiring tests. */
export const echoSkill = defineSkill<EchoArguments>({
  name: 'echo',
  description: 'Return the given message unchanged. Useful to test that tools work.',
  readOnly: true,
  parameters: {
    type: 'object',
    properties: { message: { type: 'string', description: 'Text to return.' } },
    required: ['message'],
  },
  create:
    () =>
    ({ message }) =>
      ToolResult.ok(message),
});

/** Longest `sleep`, in seconds. */
export const MAX_SLEEP_SECONDS = 3600;

/** Arguments of {@link sleepSkill}. */
export interface SleepArguments {
  /** Seconds to wait, 0–3600. */
  seconds: number;
  /** Named in the progress messages and the result. */
  label?: string;
}

/** Waits `seconds` (0–3600), reporting progress every second and stopping at once when cancelled. */
export const sleepSkill = defineSkill<SleepArguments>({
  name: 'sleep',
  description: 'Wait for a number of seconds (0–3600), then return. Useful to test timeouts, cancellation and parallel calls.',
  readOnly: true,
  parameters: {
    type: 'object',
    properties: {
      seconds: { type: 'number', minimum: 0, maximum: MAX_SLEEP_SECONDS, description: 'How long to wait, in seconds.' },
      label: { type: 'string', description: 'Optional name echoed in the result.' },
    },
    required: ['seconds'],
  },
  create:
    () =>
    async ({ seconds, label }, { signal, onProgress }) => {
      const name = label ? ` (${label})` : '';
      const deadline = Date.now() + seconds * 1000;
      try {
        for (let remaining = deadline - Date.now(); remaining > 0; remaining = deadline - Date.now()) {
          await delay(Math.min(remaining, 1000), undefined, { signal });
          const elapsed = Math.min(seconds * 1000, seconds * 1000 - (deadline - Date.now()));
          onProgress?.({ message: `slept ${(elapsed / 1000).toFixed(1)} of ${seconds} s${name}`, current: elapsed, total: seconds * 1000 });
        }
      } catch (error) {
        if (signal?.aborted) return ToolResult.fail(`Sleep${name} cancelled.`, 'cancelled');
        throw error;
      }
      return ToolResult.ok(`Slept ${seconds} s${name}.`);
    },
});

/** The utility family: `echo` and `sleep`. */
export const utilitySkills: SkillFamily = { name: 'utility', skills: [echoSkill, sleepSkill] };
