import type { ModelMessage } from 'ai';

type CountTokens = (text: string) => number;

let loading: Promise<CountTokens> | undefined;

/**
 * The tokenizer (o200k, gpt-tokenizer), loaded on first use: it costs ~300 ms and ~70 MB once
 * per process, so a short `nexus run` whose context is far from the budget never loads it.
 */
export function loadTokenCounter(): Promise<CountTokens> {
  loading ??= import('gpt-tokenizer').then((module) => module.countTokens);
  return loading;
}

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
 * Counts tokens of messages and texts, remembering each message's count (messages are never
 * changed once in a conversation). `upperBound` needs no tokenizer: a token is at least a byte.
 */
export class TokenCounter {
  readonly #count: CountTokens;

  private constructor(count: CountTokens) {
    this.#count = count;
  }

  /** A counter with the tokenizer loaded. */
  static async load(): Promise<TokenCounter> {
    return new TokenCounter(await loadTokenCounter());
  }

  /** Tokens of a plain text. */
  text(text: string): number {
    return this.#count(text);
  }

  /** Tokens of a message, its framing included. */
  message(message: ModelMessage): number {
    const entry = measure(message, () => messageText(message));
    entry.tokens ??= this.#count(entry.text);
    return entry.tokens + MESSAGE_OVERHEAD;
  }

  /** Tokens of messages. */
  messages(messages: readonly ModelMessage[]): number {
    let total = 0;
    for (const message of messages) total += this.message(message);
    return total;
  }

  /** At least as many as `message(message)`, without the tokenizer. */
  static upperBound(message: ModelMessage): number {
    return measure(message, () => messageText(message)).bytes + MESSAGE_OVERHEAD;
  }
}
