// The portable `allowed-tools` key names tools as Claude Code does (`Read`, `Grep`, `Bash(git:*)`);
// here they become Nexus tool names, so the skill tool can narrow the agent to them.

/** The standard's tool names and the Nexus tools each stands for. */
const STANDARD_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file', 'tail', 'file_info'],
  Write: ['write_file'],
  Edit: ['edit_file', 'edit_lines', 'regex_replace'],
  MultiEdit: ['edit_file', 'edit_lines', 'patch'],
  Glob: ['glob'],
  Grep: ['grep'],
  LS: ['list_directory'],
  Bash: ['bash_safe'],
};

/** Programs of `Bash(<program>…)` with a Nexus tool of their own; others map to nothing (bash_safe would allow every command). */
const BASH_PROGRAMS: Readonly<Record<string, readonly string[]>> = { git: ['git'], python: ['run_python'], python3: ['run_python'] };

const ENTRY = /^([A-Za-z][A-Za-z0-9_-]*)(?:\((.*)\))?$/s;
const NEXUS_TOOL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** What an `allowed-tools` value names. */
export interface AllowedTools {
  /** The Nexus tools it maps to, in order, once each. */
  readonly tools: readonly string[];
  /** Entries that map to no Nexus tool. */
  readonly unmapped: readonly string[];
}

/** The entries of a value: a list, or a string of entries apart by spaces or commas (not inside parentheses). */
function entriesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === 'string').map((entry) => entry.trim());
  if (typeof value !== 'string') return [];
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of value) {
    if (depth === 0 && /[\s,]/.test(character)) {
      if (current) entries.push(current);
      current = '';
      continue;
    }
    if (character === '(') depth++;
    if (character === ')') depth = Math.max(0, depth - 1);
    current += character;
  }
  if (current) entries.push(current);
  return entries;
}

function toolsOf(entry: string): readonly string[] | undefined {
  const match = ENTRY.exec(entry);
  if (!match) return undefined;
  const [, name = '', pattern] = match;
  if (pattern !== undefined && name === 'Bash') return BASH_PROGRAMS[pattern.trim().split(/[\s:*]/)[0] ?? ''];
  // A pattern on another tool (`Read(docs/**)`) narrows it by path in Claude Code; here the tool is allowed whole.
  if (Object.hasOwn(STANDARD_TOOLS, name)) return STANDARD_TOOLS[name];
  return pattern === undefined && NEXUS_TOOL_NAME.test(name) ? [name] : undefined;
}

/**
 * Maps an `allowed-tools` value — a string of entries apart by spaces (the standard) or commas, or
 * a list — to Nexus tools: the standard's names (`Read` → read_file, tail, file_info; `Grep` →
 * grep; `Bash` → bash_safe; `Bash(git:*)` → git; …) and Nexus tool names as they are. Entries
 * that map to nothing (`WebFetch`, `Bash(npm:*)`) are `unmapped`.
 */
export function mapAllowedTools(value: unknown): AllowedTools {
  const tools = new Set<string>();
  const unmapped: string[] = [];
  for (const entry of entriesOf(value)) {
    const mapped = toolsOf(entry);
    if (mapped) for (const tool of mapped) tools.add(tool);
    else unmapped.push(entry);
  }
  return { tools: [...tools], unmapped };
}
