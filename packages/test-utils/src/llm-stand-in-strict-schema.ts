import { isRecord } from './llm-stand-in-dialect.js';

// OpenAI's "Supported schemas" for Structured Outputs and strict function calling
// (platform.openai.com/docs/guides/structured-outputs#supported-schemas).
const SUPPORTED_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  // string
  'pattern',
  'format',
  // number
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  // array
  'minItems',
  'maxItems',
]);
const SUPPORTED_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const SUPPORTED_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
/** Levels of nested object properties. */
const MAX_NESTING = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;

type Context = ReadonlyArray<string | number>;

/** OpenAI names a place in a schema as a Python tuple: `()`, `('properties',)`, `('properties', 'path')`. */
function describe(context: Context): string {
  const parts = context.map((part) => (typeof part === 'number' ? String(part) : `'${part}'`));
  return `In context=(${parts.join(', ')}${parts.length === 1 ? ',' : ''})`;
}

function typesOf(schema: Record<string, unknown>): unknown[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

interface Walk {
  problems: string[];
  properties: number;
  enumValues: number;
}

function checkObject(schema: Record<string, unknown>, context: Context, walk: Walk, depth: number): void {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const keys = Object.keys(properties);
  walk.properties += keys.length;
  if (schema.additionalProperties !== false) {
    walk.problems.push(`${describe(context)}, 'additionalProperties' is required to be supplied and to be false.`);
  }
  const required = Array.isArray(schema.required) ? schema.required : undefined;
  const missing = keys.filter((key) => !required?.includes(key));
  if (!required || missing.length > 0) {
    walk.problems.push(
      `${describe(context)}, 'required' is required to be supplied and to be an array including every key in properties.` +
        (missing.length > 0 ? ` Missing '${missing[0]}'.` : ''),
    );
  }
  for (const key of required ?? []) {
    if (!keys.includes(key as string)) walk.problems.push(`${describe(context)}, Extra required key '${String(key)}' supplied.`);
  }
  for (const key of keys) checkSchema(properties[key], [...context, 'properties', key], walk, depth + 1);
}

function checkSchema(schema: unknown, context: Context, walk: Walk, depth: number): void {
  if (!isRecord(schema)) {
    walk.problems.push(`${describe(context)}, schema must be an object.`);
    return;
  }
  if (depth > MAX_NESTING) {
    walk.problems.push(`${describe(context)}, schema exceeds the maximum nesting depth of ${MAX_NESTING}.`);
    return;
  }
  for (const keyword of Object.keys(schema)) {
    if (!SUPPORTED_KEYWORDS.has(keyword) && !(keyword === '$schema' && context.length === 0)) {
      walk.problems.push(`${describe(context)}, '${keyword}' is not permitted.`);
    }
  }
  const types = typesOf(schema);
  const composed = schema.anyOf !== undefined || schema.$ref !== undefined || schema.enum !== undefined || schema.const !== undefined;
  if (types.length === 0 && !composed) walk.problems.push(`${describe(context)}, schema must have a 'type' key.`);
  for (const type of types) {
    if (!SUPPORTED_TYPES.has(type as string)) walk.problems.push(`${describe(context)}, type '${String(type)}' is not supported.`);
  }
  if (typeof schema.format === 'string' && !SUPPORTED_FORMATS.has(schema.format)) {
    walk.problems.push(`${describe(context)}, format '${schema.format}' is not supported.`);
  }
  if (Array.isArray(schema.enum)) walk.enumValues += schema.enum.length;
  if (types.includes('object')) checkObject(schema, context, walk, depth);
  if (types.includes('array')) {
    if (schema.items === undefined) walk.problems.push(`${describe(context)}, array schema missing items.`);
    else checkSchema(schema.items, [...context, 'items'], walk, depth);
  }
  if (schema.anyOf !== undefined) {
    if (!Array.isArray(schema.anyOf)) walk.problems.push(`${describe(context)}, 'anyOf' must be an array.`);
    else for (const [index, member] of schema.anyOf.entries()) checkSchema(member, [...context, 'anyOf', index], walk, depth);
  }
  for (const keyword of ['$defs', 'definitions']) {
    const definitions = schema[keyword];
    if (!isRecord(definitions)) continue;
    for (const [name, definition] of Object.entries(definitions)) checkSchema(definition, [...context, keyword, name], walk, depth);
  }
}

/**
 * What OpenAI would refuse in `schema` as the parameters of a `strict: true` function: a root that
 * is not an object (or is an `anyOf`), an object without `additionalProperties: false` or with a
 * property missing from `required`, a keyword outside the supported subset (`default`, `allOf`,
 * `not`, `oneOf`, `if`, `minLength`, `uniqueItems`, …), an unsupported `format`, an array without
 * `items`, or a schema past the size limits. Each problem reads like OpenAI's message
 * (`In context=('properties', 'path'), 'default' is not permitted.`); none means it is valid.
 */
export function findOpenAiStrictSchemaProblems(schema: unknown): string[] {
  const walk: Walk = { problems: [], properties: 0, enumValues: 0 };
  if (!isRecord(schema) || schema.type !== 'object' || schema.anyOf !== undefined) {
    walk.problems.push(`${describe([])}, the root schema must have 'type' 'object' and must not use 'anyOf'.`);
  }
  checkSchema(schema, [], walk, 1);
  if (walk.properties > MAX_PROPERTIES) walk.problems.push(`The schema has more than ${MAX_PROPERTIES} object properties.`);
  if (walk.enumValues > MAX_ENUM_VALUES) walk.problems.push(`The schema has more than ${MAX_ENUM_VALUES} enum values.`);
  return walk.problems;
}
