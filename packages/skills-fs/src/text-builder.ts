/** A bound on the length of a text being built, and the error to throw past it. */
export interface LengthLimit {
  /** Most characters allowed. */
  max: number;
  /** The error to throw once the text would reach `length` characters. */
  exceeded(length: number): Error;
}

/** Pieces joined into one string at a time; bounds the array of pieces for a text of millions of them. */
const PIECES_PER_CHUNK = 4096;

/**
 * Builds a long text from many pieces (slices of a file and replacements) with memory bounded by
 * the text's own size: pieces are joined a few thousand at a time, never held in an array per
 * line or per match, and past the {@link LengthLimit} it stops with the limit's error.
 */
export class TextBuilder {
  readonly #limit: LengthLimit | undefined;
  #chunks: string[] = [];
  #pieces: string[] = [];
  #length = 0;

  constructor(limit?: LengthLimit) {
    this.#limit = limit;
  }

  /** Characters so far. */
  get length(): number {
    return this.#length;
  }

  /** Appends `piece`; throws the limit's error when the text grows past it. */
  push(piece: string): void {
    if (piece === '') return;
    this.#length += piece.length;
    if (this.#limit && this.#length > this.#limit.max) throw this.#limit.exceeded(this.#length);
    this.#pieces.push(piece);
    if (this.#pieces.length >= PIECES_PER_CHUNK) {
      this.#chunks.push(this.#pieces.join(''));
      this.#pieces = [];
    }
  }

  /** The text built. */
  toString(): string {
    if (this.#chunks.length === 0) return this.#pieces.join('');
    return this.#chunks.concat(this.#pieces.join('')).join('');
  }
}

/**
 * `text` with every occurrence of `search` replaced by `replacement`, built piece by piece:
 * `String.replaceAll` holds every match at once (1 GB for the 15 million line breaks of a 31 MiB
 * file). Past `limit`, its error.
 */
export function replaceEvery(text: string, search: string, replacement: string, limit?: LengthLimit): string {
  const result = new TextBuilder(limit);
  let position = 0;
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, position)) {
    result.push(text.slice(position, index));
    result.push(replacement);
    position = index + search.length;
  }
  result.push(text.slice(position));
  return result.toString();
}
