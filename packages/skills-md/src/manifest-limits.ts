// The vocabulary and limits of a SKILL.md frontmatter, kept apart from its zod schema so that
// listing packages does not load zod.
/** What a command does, seed 004's categories: `read` / `view` change nothing, `write` / `workflow` may destroy, `general` neither. */
export const COMMAND_CATEGORIES = ['read', 'view', 'write', 'workflow', 'general'] as const;
/** A command's category. */
export type CommandCategory = (typeof COMMAND_CATEGORIES)[number];

/**
 * The types a command parameter may have: JSON Schema's, `path` and `output_path` checked through
 * the sandbox, and `string_list` (a list of strings, Python's `list[str]`) for script commands.
 */
export const PARAMETER_TYPES = ['string', 'integer', 'number', 'boolean', 'enum', 'path', 'output_path', 'string_list'] as const;
/** A parameter's type. */
export type ParameterType = (typeof PARAMETER_TYPES)[number];

/** Frontmatter keys of the portable specification (agentskills.io); any other key makes a package not portable. */
export const PORTABLE_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);

/** The longest portable name and description. */
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
/** The time limit no command can exceed, in seconds (seed 003). */
export const MAX_COMMAND_SECONDS = 60;

/** The placeholder that stands for the package folder; no parameter may take its name. */
export const SKILL_DIR_PLACEHOLDER = 'skill_dir';
