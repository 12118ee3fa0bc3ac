import type { ModelMessage } from 'ai';
import { tokenizerThread } from './tokenizer-thread.js';

/** Tokens a message costs beyond its text (role and framing), as OpenAI documents for chat formats. */
const MESSAGE_OVERHEAD = 4;

interface MeasuredText {
  text: string;
  bytes: number;
  tokens?: number;
}

const measured = new WeakMap<object, MeasuredText>();

function partText(part: unknown): string {
  if (typeof part !== 'object' || part === null) return String(part);
  const record = part as Record<string, unknown>;
  switch (record.type) {
    case 'text':
    case 'reasoning':
      return String(record.text);
    case 'tool-call':
      return `${record.toolName} ${JSON.stringify(record.input)}`;
    case 'tool-result': {
      const output = record.output as { value?: unknown; reason?: string };
      return typeof output.value === 'string' ? output.value : JSON.stringify(output.value ?? output.reason ?? '');
    }
    default:
      return JSON.stringify(record);
  }
}

/** The text of a message as the model reads it, for counting. */
export function messageText(message: ModelMessage): string {
  return typeof message.content === 'string' ? message.content : message.content.map(partText).join('\n');
}

function measure(key: object, text: () => string): MeasuredText {
  let entry = measured.get(key);
  if (entry === undefined) {
    const value = text();
    entry = { text: value, bytes: Buffer.byteLength(value) };
    measured.set(key, entry);
  }
  return entry;
}

/**
 * Counts tokens of messages and texts on the tokenizer's thread (o200k), remembering each message's
 * count (messages are never changed once in a conversation). `upperBound` needs no tokenizer: a
 * token is at least a byte.
 */
export class TokenCounter {
  /** The counter (one per process: the tokenizer's thread starts on the first count). */
  static async load(): Promise<TokenCounter> {
    return COUNTER;
  }

  /** Tokens of each plain text. */
  texts(texts: readonly string[]): Promise<number[]> {
    return tokenizerThread.count(texts);
  }

  /** Tokens of each message, its framing included; those not counted yet are counted in one batch. */
  async messageCounts(messages: readonly ModelMessage[]): Promise<number[]> {
    const entries = messages.map((message) => measure(message, () => messageText(message)));
    const uncounted = entries.filter((entry) => entry.tokens === undefined);
    const counts = await this.texts(uncounted.map((entry) => entry.text));
    uncounted.forEach((entry, index) => {
      entry.tokens = counts[index];
    });
    return entries.map((entry) => (entry.tokens as number) + MESSAGE_OVERHEAD);
  }

  /** Tokens of messages, together. */
  async messages(messages: readonly ModelMessage[]): Promise<number> {
    return (await this.messageCounts(messages)).reduce((total, count) => total + count, 0);
  }

  /** At least as many as a message costs, without the tokenizer. */
  static upperBound(message: ModelMessage): number {
    return measure(message, () => messageText(message)).bytes + MESSAGE_OVERHEAD;
  }
}

const COUNTER = new TokenCounter();
