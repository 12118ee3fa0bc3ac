/** Text helpers for the condensed output the skills give the LLM. */

/** A value worth printing: not `undefined`, `null`, `''` or an empty list. */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
}

/** `Found N <noun>:` and one block per item, or `No <noun> found.` */
export function listText<T>(noun: string, items: readonly T[], line: (item: T) => string, empty = `No ${noun} found.`): string {
  if (items.length === 0) return empty;
  return [`Found ${items.length} ${noun}:`, ...items.map(line)].join('\n');
}

/** `# title`, then a `Label: value` line per present field, then an optional body. */
export function detailText(title: string, fields: ReadonlyArray<readonly [string, unknown]>, body?: string): string {
  const lines = [`# ${title}`];
  for (const [label, value] of fields) {
    if (present(value)) lines.push(`${label}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
  }
  if (body !== undefined) lines.push('', body);
  return lines.join('\n');
}

/** The first `length` characters of a commit SHA. */
export function shortSha(sha: unknown, length = 8): string {
  return typeof sha === 'string' ? sha.slice(0, length) : '';
}

/** `YYYY-MM-DD` of an ISO timestamp. */
export function day(iso: unknown): string {
  return typeof iso === 'string' ? iso.slice(0, 10) : '';
}

/** `YYYY-MM-DD HH:MM` of an ISO timestamp. */
export function minute(iso: unknown): string {
  return typeof iso === 'string' ? iso.slice(0, 16).replace('T', ' ') : '';
}

/** One line of at most `max` characters, with `…` when cut. */
export function preview(text: unknown, max: number): string {
  if (typeof text !== 'string') return '';
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** `@name` of each user object. */
export function usernames(users: unknown): string[] {
  return Array.isArray(users) ? users.map((user) => `@${String((user as { username?: unknown }).username)}`) : [];
}

/** `x.y KB`, or `x.y MB` from 1024 KB. */
export function size(bytes: number): string {
  const kb = bytes / 1024;
  return kb >= 1024 ? `${(kb / 1024).toFixed(1)} MB` : `${kb.toFixed(1)} KB`;
}

/** `[state]` marker of an issue, MR, epic or milestone. */
export function stateMark(state: unknown): string {
  return `[${String(state ?? '?')}]`;
}

/** Seconds as `Xm Ys`. */
export function duration(seconds: unknown): string {
  if (typeof seconds !== 'number') return '';
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}m ${whole % 60}s`;
}

/** Keeps the end of `text` within `maxChars`, saying how much was dropped. */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n… [output truncated: ${text.length - maxChars} more characters]`;
}
