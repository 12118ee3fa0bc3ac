import { once } from 'node:events';
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import type { ConfirmFunction } from '@nexus/core';

/** A `confirm` service that asks on the terminal (`[y/N]`); anything but "y" or "yes", or end of input, refuses. */
export function confirmOnTerminal(input: Readable, output: Writable): ConfirmFunction {
  return async ({ tool, action, detail }) => {
    const prompt = createInterface({ input, output });
    try {
      const closed = once(prompt, 'close').then(() => '');
      const answer = await Promise.race([prompt.question(`${detail ? `${detail}\n` : ''}Allow ${tool} to ${action}? [y/N] `), closed]);
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      prompt.close();
    }
  };
}

/**
 * The `confirm` service of a command that cannot ask anyone (its input is not a terminal): it
 * refuses, so the model is told the call needs a confirmation that was not given — rather than the
 * turn waiting for an approval nobody can give.
 */
export const confirmWithNobodyToAsk: ConfirmFunction = () => false;
