import { z } from 'zod';
import { COMMAND_CATEGORIES, MAX_DESCRIPTION_LENGTH, PARAMETER_TYPES, SKILL_DIR_PLACEHOLDER } from './manifest-limits.js';

const MAX_COMPATIBILITY_LENGTH = 500;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COMMAND_NAME = /^[A-Za-z0-9_-]+$/;

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const parameterSchema = z
  .strictObject({
    type: z.enum(PARAMETER_TYPES).default('string'),
    required: z.boolean().default(false),
    description: z.string().max(MAX_DESCRIPTION_LENGTH).optional(),
    enum: z.array(scalar).min(1).optional(),
    default: z.union([scalar, z.array(z.string())]).optional(),
    allow_dash: z.boolean().default(false),
  })
  .superRefine((parameter, context) => {
    if (parameter.type === 'enum' && !parameter.enum)
      context.addIssue({ code: 'custom', message: 'a parameter of type `enum` needs an `enum` list' });
    if (parameter.enum && !['enum', 'string', 'integer', 'number'].includes(parameter.type))
      context.addIssue({ code: 'custom', path: ['enum'], message: `an \`enum\` list does not fit type \`${parameter.type}\`` });
    if (Array.isArray(parameter.default) !== (parameter.type === 'string_list') && parameter.default !== undefined)
      context.addIssue({ code: 'custom', path: ['default'], message: 'a list default is for a `string_list` parameter only' });
    if (parameter.required && parameter.default !== undefined)
      context.addIssue({ code: 'custom', path: ['default'], message: 'a required parameter cannot have a default' });
  });

const parametersSchema = z
  .record(z.string().regex(IDENTIFIER, 'parameter names are letters, digits and `_`, not starting with a digit'), parameterSchema)
  .refine((parameters) => !Object.hasOwn(parameters, SKILL_DIR_PLACEHOLDER), {
    message: `\`${SKILL_DIR_PLACEHOLDER}\` is reserved for the package folder`,
  });

const timeoutSchema = z.number().positive('must be a positive number of seconds');

const commandSchema = z.strictObject({
  command: z.string().min(1, 'must be a command template'),
  description: z.string().max(MAX_DESCRIPTION_LENGTH).optional(),
  parameters: parametersSchema.default({}),
  timeout: timeoutSchema.optional(),
  category: z.enum(COMMAND_CATEGORIES).default('general'),
});

const stringList = z.union([z.string(), z.array(z.string())]);

/** The frontmatter of a `SKILL.md`: the portable keys, seed 003's and 004's, and any others (kept, and noted as not portable). */
export const skillManifestSchema = z
  .looseObject({
    name: z.string().min(1).optional(),
    description: z.string({ error: 'a `description` is required: say what the skill does and when to use it' }).min(1),
    license: z.string().optional(),
    compatibility: z.string().max(MAX_COMPATIBILITY_LENGTH).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    'allowed-tools': stringList.optional(),
    'disable-model-invocation': z.boolean().optional(),
    version: z.union([z.string(), z.number()]).optional(),
    routing_keywords: z.array(z.string()).optional(),
    intents: z.array(z.string()).optional(),
    authors: stringList.optional(),
    category: z.enum(COMMAND_CATEGORIES).optional(),
    command: z.string().min(1, 'must be a command template').optional(),
    parameters: parametersSchema.optional(),
    timeout: timeoutSchema.optional(),
    commands: z.record(z.string().regex(COMMAND_NAME, 'command names are letters, digits, `_` and `-`'), commandSchema).optional(),
  })
  .superRefine((manifest, context) => {
    if (manifest.command !== undefined && manifest.commands !== undefined)
      context.addIssue({ code: 'custom', path: ['commands'], message: 'use either `command` or `commands`, not both' });
    if (manifest.command === undefined) {
      for (const key of ['parameters', 'timeout'] as const) {
        if (manifest[key] !== undefined)
          context.addIssue({
            code: 'custom',
            path: [key],
            message: `\`${key}\` belongs to a \`command\` (or to an entry of \`commands\`)`,
          });
      }
    }
  });

/** A validated frontmatter. */
export type SkillManifest = z.infer<typeof skillManifestSchema>;
/** A parameter as `SKILL.md` defines it, defaults filled in. */
export type ParameterDefinition = z.infer<typeof parameterSchema>;
/** One entry of `commands:`, defaults filled in. */
export type CommandDefinition = z.infer<typeof commandSchema>;

/** The parameter definitions of a script command (§5), checked like those of `SKILL.md`. */
export const scriptCommandSchema = z.strictObject({
  name: z.string().regex(COMMAND_NAME, 'command names are letters, digits, `_` and `-`'),
  description: z.string().min(1).max(MAX_DESCRIPTION_LENGTH),
  category: z.enum(COMMAND_CATEGORIES).default('general'),
  parameters: parametersSchema.default({}),
  timeout: timeoutSchema.optional(),
});

/** A script command's definition as validated. */
export type ScriptCommandDefinition = z.infer<typeof scriptCommandSchema>;
