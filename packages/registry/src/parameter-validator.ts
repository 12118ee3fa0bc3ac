import { ConfigError, type JsonSchemaObject } from '@nexus/core';
import type { default as AjvCore, ErrorObject, ValidateFunction } from 'ajv/dist/core.js';
import { type SchemaDialect, schemaDialectOf } from './schema-dialect.js';
import { compileTextCoercion } from './text-coercion.js';

/** Outcome of validating arguments against a skill's parameters. */
type ValidationOutcome = { valid: true; args: Record<string, unknown> } | { valid: false; message: string; parameters: string[] };

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function parameterName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

function valueAt(root: unknown, instancePath: string): unknown {
  let value = root;
  for (const part of instancePath.split('/').slice(1)) value = (value as Record<string, unknown> | undefined)?.[part];
  return value;
}

function schemaDescription(schema: JsonSchemaObject, parameter: string): string {
  const property = schema.properties?.[parameter];
  return typeof property === 'object' && typeof property.description === 'string' ? ` (${property.description})` : '';
}

function describeError(error: ErrorObject, args: unknown, schema: JsonSchemaObject): { parameter: string; message: string } {
  const at = parameterName(error.instancePath);
  const got = () => `, got ${describeValue(valueAt(args, error.instancePath))}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = at ? `${at}.${String(params.missingProperty)}` : String(params.missingProperty);
      return { parameter: missing, message: `Missing required parameter \`${missing}\`${at ? '' : schemaDescription(schema, missing)}.` };
    }
    case 'additionalProperties': {
      const extra = at ? `${at}.${String(params.additionalProperty)}` : String(params.additionalProperty);
      const known = at ? '' : Object.keys(schema.properties ?? {}).join(', ');
      return { parameter: extra, message: `Unknown parameter \`${extra}\`${known ? `; expected one of: ${known}` : ''}.` };
    }
    case 'type': {
      const types = String(params.type)
        .split(',')
        .map((type) => TYPE_WORDS[type] ?? type);
      return { parameter: at, message: `Parameter \`${at}\` must be ${types.join(' or ')}${got()}.` };
    }
    case 'enum':
      return {
        parameter: at,
        message: `Parameter \`${at}\` must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}${got()}.`,
      };
    case 'const':
      return { parameter: at, message: `Parameter \`${at}\` must be ${JSON.stringify(params.allowedValue)}${got()}.` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { parameter: at, message: `Parameter \`${at}\` must be ${String(params.comparison)} ${String(params.limit)}${got()}.` };
    case 'minLength':
      return { parameter: at, message: `Parameter \`${at}\` must be at least ${String(params.limit)} character(s) long.` };
    case 'maxLength':
      return { parameter: at, message: `Parameter \`${at}\` must be at most ${String(params.limit)} characters long.` };
    case 'minItems':
      return { parameter: at, message: `Parameter \`${at}\` must have at least ${String(params.limit)} item(s).` };
    case 'maxItems':
      return { parameter: at, message: `Parameter \`${at}\` must have at most ${String(params.limit)} items.` };
    case 'pattern':
      return { parameter: at, message: `Parameter \`${at}\` must match the pattern ${String(params.pattern)}${got()}.` };
    default:
      return {
        parameter: at,
        message: at ? `Parameter \`${at}\` ${error.message ?? 'is invalid'}.` : `Arguments ${error.message ?? 'are invalid'}.`,
      };
  }
}

// No `coerceTypes`: ajv's coercion also turns numbers, booleans and null into strings and null
// into anything; compileTextCoercion applies the narrower rule before validation.
const AJV_OPTIONS = {
  allErrors: true,
  useDefaults: true,
  strict: true,
  strictTypes: false,
  strictRequired: false,
  allowUnionTypes: true,
  validateFormats: false,
  // Each skill's schema stands alone: one that names an `$id` is not kept under it, so a new version
  // of a skill (or another skill) with the same `$id` compiles instead of clashing with the old one.
  addUsedSchema: false,
} as const;

/** A schema compiled once: its text coercion and its ajv validator. */
interface CompiledSchema {
  coerce: (args: Record<string, unknown>) => Record<string, unknown>;
  validate: ValidateFunction;
}

/**
 * Validates skill arguments with ajv, in the dialect the schema's `$schema` names (2020-12 without
 * one; 2019-09, draft-07 and draft-06 too): defaults are filled in, text a model commonly sends is
 * read as what the schema asks for (`"10"` for an integer or a number, `"true"` / `"false"` for a
 * boolean) and nothing else is coerced — a number, a boolean or `null` never becomes a string,
 * `null` never becomes anything — and errors are sentences that name the parameter and say what
 * was expected. Each dialect's ajv is loaded on its first validation and each schema compiled
 * once, so importing the registry and listing tools stays cheap.
 */
export class ParameterValidator {
  /** One ajv per dialect's class, made on the first schema of that dialect. */
  readonly #ajvs = new Map<SchemaDialect['loadAjv'], AjvCore>();
  readonly #compiled = new WeakMap<JsonSchemaObject, CompiledSchema>();

  async #ajvFor(dialect: SchemaDialect): Promise<AjvCore> {
    let ajv = this.#ajvs.get(dialect.loadAjv);
    if (!ajv) {
      const Ajv = await dialect.loadAjv();
      ajv = this.#ajvs.get(dialect.loadAjv) ?? new Ajv(AJV_OPTIONS);
      this.#ajvs.set(dialect.loadAjv, ajv);
    }
    return ajv;
  }

  async #compile(skill: string, schema: JsonSchemaObject): Promise<void> {
    if (this.#compiled.has(schema)) return;
    const ajv = await this.#ajvFor(schemaDialectOf(skill, schema));
    // The ajv is the dialect's, so `$schema` has said all it had to (ajv only knows one spelling of each URI).
    const { $schema, ...rest } = schema as JsonSchemaObject & { $schema?: unknown };
    try {
      this.#compiled.set(schema, { coerce: compileTextCoercion(schema), validate: ajv.compile(rest) });
    } catch (error) {
      throw new ConfigError(`Invalid parameters schema for skill "${skill}": ${(error as Error).message}`, { cause: error });
    }
  }

  /**
   * Validates a copy of `args` (the caller's objects, nested ones included, are never changed).
   * Synchronous once the schema is compiled, so the hot path awaits nothing.
   */
  validate(skill: string, schema: JsonSchemaObject, args: unknown): ValidationOutcome | Promise<ValidationOutcome> {
    const compiled = this.#compiled.get(schema);
    if (!compiled) return this.#compile(skill, schema).then(() => this.validate(skill, schema, args));
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { valid: false, message: `Arguments must be a JSON object, got ${describeValue(args)}.`, parameters: [] };
    }
    const { coerce, validate } = compiled;
    const copy = coerce(args as Record<string, unknown>);
    if (validate(copy)) return { valid: true, args: copy };
    const problems = (validate.errors ?? []).map((error) => describeError(error, copy, schema));
    const unique = [...new Map(problems.map((problem) => [problem.message, problem])).values()];
    return {
      valid: false,
      message: unique.map((problem) => problem.message).join(' '),
      parameters: [...new Set(unique.map((problem) => problem.parameter).filter(Boolean))],
    };
  }
}
