import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  authorizePath,
  type ConfirmFunction,
  InvalidParametersError,
  type JsonSchema,
  type JsonSchemaObject,
  type JsonValue,
  type ServiceContainer,
} from '@nexus/core';
import type { ParameterDefinition } from './skill-manifest.js';

/** Parameters of one command, by name. */
export type ParameterDefinitions = Readonly<Record<string, ParameterDefinition>>;

const JSON_TYPES: Record<ParameterDefinition['type'], string> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  enum: 'string',
  path: 'string',
  output_path: 'string',
  string_list: 'array',
};

function describeParameter(definition: ParameterDefinition, outputDirectory: string): string {
  const own = definition.description ?? '';
  const notes: string[] = [];
  if (definition.required) notes.push('Required.');
  if (definition.type === 'path') notes.push('A path to read, relative to the working directory; it must be inside the allowed paths.');
  if (definition.type === 'output_path') {
    const fallback = definition.default === undefined ? 'a new file there' : String(definition.default);
    notes.push(`A path to write, relative to the working directory (default: ${fallback} under ${outputDirectory}/).`);
  }
  return [own, ...notes].filter(Boolean).join(' ');
}

/**
 * The JSON Schema of a command's parameters. Required parameters are not listed in `required`,
 * so that a call without one reaches the skill and gets seed 003's `pending` answer naming what is
 * missing, instead of a validation error; their descriptions say "Required.". An `output_path`'s
 * default stays out of the schema: it is a file name under the output directory, not under the
 * working directory.
 */
export function parametersJsonSchema(parameters: ParameterDefinitions, outputDirectory: string): JsonSchemaObject {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, definition] of Object.entries(parameters)) {
    const schema: Record<string, JsonValue> = { type: JSON_TYPES[definition.type] };
    if (definition.type === 'string_list') schema.items = { type: 'string' };
    if (definition.type === 'enum')
      schema.type = [...new Set(definition.enum?.map((value) => typeof value))].length === 1 ? typeof definition.enum?.[0] : 'string';
    if (definition.enum) schema.enum = definition.enum;
    if (definition.default !== undefined && definition.type !== 'output_path') schema.default = definition.default;
    const description = describeParameter(definition, outputDirectory);
    if (description) schema.description = description;
    properties[name] = schema as JsonSchema;
  }
  return { type: 'object', properties, additionalProperties: false };
}

/** seed 003's `pending` data: the required parameters the call left out, and the optional ones. */
export interface MissingParameters {
  readonly required: string[];
  readonly optional: string[];
}

const isAbsent = (value: unknown) => value === undefined || value === null || value === '';

/** The required parameters absent from `args` (none: `undefined`), with the optional ones for the answer. */
export function findMissingParameters(
  parameters: ParameterDefinitions,
  args: Readonly<Record<string, unknown>>,
): MissingParameters | undefined {
  const entries = Object.entries(parameters);
  const required = entries.filter(([name, definition]) => definition.required && isAbsent(args[name])).map(([name]) => name);
  if (required.length === 0) return undefined;
  return { required, optional: entries.filter(([, definition]) => !definition.required).map(([name]) => name) };
}

/** What a prepared call knows besides the values. */
export interface ValueContext {
  readonly services: ServiceContainer;
  /** The tool, for per-tool path roots and confirmation. */
  readonly tool: string;
  readonly skill: string;
  readonly command: string;
  /** Absolute directory where default outputs go. */
  readonly outputDirectory: string;
  /** The call's own way to ask (a write outside the write roots under `trusted`). */
  readonly confirm?: ConfirmFunction | undefined;
}

/** A value a command gets: a list of strings only for a `string_list` parameter (script commands). */
export type CommandValue = string | number | boolean | readonly string[];

/** Arguments checked and converted for the program: paths authorised (real absolute paths), defaults applied. */
export interface PreparedValues {
  readonly values: Record<string, CommandValue>;
  /** The `output_path` values, real absolute paths, for the result. */
  readonly outputs: string[];
}

function wrongType(name: string, expected: string, value: unknown): never {
  const got =
    value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'string' ? JSON.stringify(value) : typeof value;
  throw new InvalidParametersError(`Expected \`${name}\` to be ${expected}, got ${got}.`, { parameter: name });
}

function checkScalar(name: string, definition: ParameterDefinition, value: unknown): CommandValue {
  const { type } = definition;
  if (type === 'string_list') {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) wrongType(name, 'a list of strings', value);
    return value as string[];
  }
  if (type === 'integer' && !Number.isInteger(value)) wrongType(name, 'an integer', value);
  if (type === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) wrongType(name, 'a number', value);
  if (type === 'boolean' && typeof value !== 'boolean') wrongType(name, 'a boolean', value);
  if (['string', 'path', 'output_path'].includes(type) && typeof value !== 'string') wrongType(name, 'a string', value);
  if (type === 'enum' && !['string', 'number', 'boolean'].includes(typeof value)) wrongType(name, 'one of the listed values', value);
  if (definition.enum && !definition.enum.includes(value as string | number | boolean)) {
    wrongType(name, `one of ${definition.enum.map((option) => JSON.stringify(option)).join(', ')}`, value);
  }
  return value as string | number | boolean;
}

function defaultOutputName(context: ValueContext): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${context.skill}-${context.command}-${stamp}-${randomBytes(2).toString('hex')}`;
}

/**
 * Checks and converts a call's arguments: types (also for callers that bypass the registry's
 * validation), enums, defaults; a `path` authorised for reading through core's sandbox (it must
 * exist) and an `output_path` for writing (asking under `trusted` outside the write roots), both
 * turned into real absolute paths; a missing `output_path` becomes a new file under the output
 * directory, whose parent directories are created.
 */
export async function prepareValues(
  parameters: ParameterDefinitions,
  args: Readonly<Record<string, unknown>>,
  context: ValueContext,
): Promise<PreparedValues> {
  const { services, tool, confirm } = context;
  const values: Record<string, CommandValue> = {};
  const outputs: string[] = [];
  for (const [name, definition] of Object.entries(parameters)) {
    let value = isAbsent(args[name]) ? undefined : args[name];
    if (definition.type === 'output_path') {
      const path =
        value === undefined
          ? join(context.outputDirectory, String(definition.default ?? defaultOutputName(context)))
          : checkScalar(name, definition, value);
      const real = await authorizePath(services, tool, String(path), { access: 'write', confirm });
      await mkdir(dirname(real), { recursive: true });
      values[name] = real;
      outputs.push(real);
      continue;
    }
    value ??= definition.default;
    if (value === undefined) continue;
    const checked = checkScalar(name, definition, value);
    values[name] =
      definition.type === 'path' ? await authorizePath(services, tool, checked as string, { access: 'read', mustExist: true }) : checked;
  }
  return { values, outputs };
}
