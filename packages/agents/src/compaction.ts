import type { LanguageModel, ModelMessage } from 'ai';
import { streamStep } from './stream-step.js';
import { messageText, type TokenCounter } from './token-counter.js';

/** Share of the context budget the recent messages may keep after a compaction. */
export const KEEP_SHARE = 0.4;

const SUMMARY_PROMPT =
  'Summarise the conversation transcript below for your own later use: the goal, decisions and their reasons, ' +
  'files and commands involved, results of tool calls that still matter, and what remains to be done. ' +
  'Be complete but brief; write plain prose and lists, no preamble.';

/** Prefix of the message that replaces compacted history. */
export const SUMMARY_PREFIX = 'Summary of the earlier conversation (older messages were compacted):';

/**
 * Where the recent part of `messages` may start: the earliest index whose messages fit in
 * `keepTokens`, never a tool result (a tool call and its result stay together), never 0 (something
 * must be left to summarise). `undefined` when there is no such place.
 */
export async function findSplit(messages: readonly ModelMessage[], keepTokens: number, counter: TokenCounter): Promise<number | undefined> {
  const counts = await counter.messageCounts(messages);
  let split: number | undefined;
  let kept = 0;
  for (let index = messages.length - 1; index > 0; index--) {
    kept += counts[index] as number;
    if (messages[index]?.role === 'tool') continue;
    if (kept > keepTokens && split !== undefined) break;
    split = index;
  }
  return split;
}

function transcript(messages: readonly ModelMessage[]): string {
  return messages.map((message) => `[${message.role}]\n${messageText(message)}`).join('\n\n');
}

/**
 * Asks the model to summarise `older` (as a plain transcript, so no provider sees tool calls
 * without their definitions) and returns the message that stands in for them.
 */
export async function summarize(model: LanguageModel, older: readonly ModelMessage[], signal: AbortSignal): Promise<ModelMessage> {
  const { text } = await streamStep({
    model,
    instructions: SUMMARY_PROMPT,
    messages: [{ role: 'user', content: transcript(older) }],
    tools: {},
    signal,
    maxOutputTokens: undefined,
    onText: () => {},
  });
  signal.throwIfAborted();
  return { role: 'user', content: `${SUMMARY_PREFIX}\n${text.trim()}` };
}
