/** Formats a byte count for people: `512 B`, `1.5 KiB`, `3.2 MiB`. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** Length of `bytes` without a UTF-8 sequence cut off at its end. */
function completeUtf8Length(bytes: Uint8Array): number {
  let lead = bytes.length - 1;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last sequence.
  while (lead > 0 && lead > bytes.length - 4 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
  const first = bytes[lead] ?? 0;
  const expected = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + expected > bytes.length ? lead : bytes.length;
}

/**
 * Collects one output stream up to a byte cap. Everything past the cap is counted and dropped,
 * so memory stays bounded however much a command prints; {@link text} then ends with a marker
 * saying how much was left out.
 */
export class CappedOutput {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #total = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Adds a chunk read from the stream. */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.#total += bytes.length;
    const room = this.#limit - this.#kept;
    if (room <= 0) return;
    const kept = bytes.length <= room ? bytes : bytes.subarray(0, room);
    // Copy a partial chunk so the dropped rest of the stream's buffer can be freed.
    this.#chunks.push(kept === bytes ? bytes : Buffer.from(kept));
    this.#kept += kept.length;
  }

  /** Whether bytes were dropped. */
  get truncated(): boolean {
    return this.#total > this.#kept;
  }

  /** Bytes the stream produced, kept or not. */
  get totalBytes(): number {
    return this.#total;
  }

  /** The kept output as UTF-8, with a truncation marker when bytes were dropped. */
  text(): string {
    const bytes = Buffer.concat(this.#chunks);
    if (!this.truncated) return bytes.toString('utf8');
    const shown = bytes.subarray(0, completeUtf8Length(bytes));
    return `${shown.toString('utf8')}\n[output truncated: showing the first ${formatBytes(shown.length)} of ${formatBytes(this.#total)}]`;
  }
}
