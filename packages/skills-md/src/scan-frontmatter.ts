// A quick look at a SKILL.md frontmatter for listing packages, exact or nothing: it reads the
// top-level keys a listing needs when their values are written in the plain forms nearly every
// package uses, and gives up (undefined) on anything else, which the YAML parser then reads.

/** What listing a package needs from its frontmatter. */
export interface FrontmatterSummary {
  readonly name?: string;
  readonly description: string;
  readonly routingKeywords: readonly string[];
  readonly intents: readonly string[];
  /** Whether there is a single `command`. */
  readonly command: boolean;
  /** The names of `commands:` entries. */
  readonly commands: readonly string[];
  /** `disable-model-invocation: true`. */
  readonly hiddenFromModel: boolean;
}

const FENCE = /^---[ \t]*$/;
const END = /^(---|\.\.\.)[ \t]*$/;
const TOP_LEVEL_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;
const COMMAND_KEY = /^([A-Za-z0-9_-]+):(?:[ \t].*)?$/;
/** Plain scalars the YAML core schema reads as something other than a string, or might. */
const NOT_A_STRING = /^(?:[-+.\d~]|(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$)/;
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;

/** A single-line scalar that is surely a string, or undefined. */
function stringScalar(text: string): string | undefined {
  const value = text.trim();
  if (value === '""' || value === "''") return undefined;
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    const inner = value.slice(1, -1);
    return inner.includes('"') || inner.includes('\\') ? undefined : inner;
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
    const inner = value.slice(1, -1);
    return inner.replaceAll("''", '').includes("'") ? undefined : inner.replaceAll("''", "'");
  }
  const plain = value.replace(/[ \t]+#.*$/, '').trimEnd();
  if (plain === '' || INDICATOR.test(plain) || NOT_A_STRING.test(plain) || /:[ \t]|:$|\t/.test(plain)) return undefined;
  return plain;
}

/** A list of strings written `[a, b]` or as `- a` lines, or undefined. */
function stringList(value: string, children: readonly string[]): string[] | undefined {
  if (value === '') {
    if (children.length === 0) return undefined;
    const indent = /^ */.exec(children[0] ?? '')?.[0] ?? '';
    const items = children.map((line) => (line.startsWith(`${indent}- `) ? stringScalar(line.slice(indent.length + 2)) : undefined));
    return items.every((item) => item !== undefined) ? (items as string[]) : undefined;
  }
  if (children.length > 0 || !value.startsWith('[') || !value.endsWith(']')) return undefined;
  const inner = value.slice(1, -1).trim();
  if (inner === '') return [];
  if (/[[\]{}]/.test(inner)) return undefined;
  const items = inner.split(',').map(stringScalar);
  return items.every((item) => item !== undefined) ? (items as string[]) : undefined;
}

/** The keys of a block mapping written one level in, or undefined. */
function mappingKeys(value: string, children: readonly string[]): string[] | undefined {
  if (value !== '' || children.length === 0) return undefined;
  const indent = (children[0] as string).length - (children[0] as string).trimStart().length;
  const keys: string[] = [];
  for (const line of children) {
    const depth = line.length - line.trimStart().length;
    if (depth < indent) return undefined;
    if (depth > indent) continue;
    const key = COMMAND_KEY.exec(line.slice(indent))?.[1];
    if (key === undefined || keys.includes(key)) return undefined;
    keys.push(key);
  }
  return keys;
}

/** The lines of the frontmatter, or undefined when there is none (the parser explains why). */
function frontmatterLines(text: string): string[] | undefined {
  const lines = text.split('\n');
  if (!FENCE.test((lines[0] ?? '').replace(/\r$/, ''))) return undefined;
  const end = lines.findIndex((line, index) => index > 0 && END.test(line.replace(/\r$/, '')));
  return end === -1 ? undefined : lines.slice(1, end).map((line) => line.replace(/\r$/, ''));
}

/**
 * Reads `name`, `description`, `routing_keywords`, `intents`, `command`, `commands` and
 * `disable-model-invocation` (written `true` or `false`) from a
 * `SKILL.md` without a YAML parser — exactly as the parser would, or not at all: any form it does
 * not know for certain (block scalars, multi-line or escaped strings, anchors, tags, flow
 * mappings, a repeated key, a value YAML reads as a number) gives `undefined`, and so does a
 * missing description. Other keys' values are not looked at; loading the package checks them.
 */
export function scanFrontmatter(text: string): FrontmatterSummary | undefined {
  const lines = frontmatterLines(text);
  if (!lines) return undefined;
  const values = new Map<string, { value: string; children: string[] }>();
  let current: { value: string; children: string[] } | undefined;
  for (const line of lines) {
    if (line.trim() === '' || /^[ \t]*#/.test(line)) continue;
    if (line.startsWith(' ')) {
      if (!current) return undefined;
      current.children.push(line);
      continue;
    }
    const match = TOP_LEVEL_KEY.exec(line);
    if (!match || values.has(match[1] as string)) return undefined;
    current = { value: (match[2] ?? '').trim(), children: [] };
    values.set(match[1] as string, current);
  }
  const scalar = (key: string) => {
    const entry = values.get(key);
    return entry && entry.children.length === 0 ? stringScalar(entry.value) : undefined;
  };
  const list = (key: string) => {
    const entry = values.get(key);
    return entry ? stringList(entry.value, entry.children) : [];
  };
  const description = scalar('description');
  const name = values.has('name') ? scalar('name') : undefined;
  const routingKeywords = list('routing_keywords');
  const intents = list('intents');
  const commandsEntry = values.get('commands');
  const commands = commandsEntry ? mappingKeys(commandsEntry.value, commandsEntry.children) : [];
  const command = values.has('command');
  if (description === undefined || (values.has('name') && name === undefined) || !routingKeywords || !intents || !commands)
    return undefined;
  if (command && (scalar('command') === undefined || commandsEntry)) return undefined;
  const hidden = values.get('disable-model-invocation');
  if (hidden && (hidden.children.length > 0 || !/^(true|false)$/.test(hidden.value))) return undefined;
  const hiddenFromModel = hidden?.value === 'true';
  return { ...(name === undefined ? {} : { name }), description, routingKeywords, intents, command, commands, hiddenFromModel };
}
