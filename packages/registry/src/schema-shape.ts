import { ConfigError, type JsonSchemaObject } from '@nexus/core';
import { type SchemaDialect, schemaDialectOf } from './schema-dialect.js';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMAS = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']);
const NUMBERS = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);
const STRINGS = new Set(['description', 'title', 'pattern', 'format', '$ref', '$schema', '$id', '$comment']);
const FREE = new Set([
  'default',
  'const',
  'examples',
  'enum',
  'required',
  'type',
  'uniqueItems',
  'deprecated',
  'readOnly',
  'writeOnly',
  'dependentRequired',
]);

/** The JSON Schema keywords a skill's parameters may use: the 2020-12 subset LLM providers accept. */
export const SUPPORTED_KEYWORDS: readonly string[] = [...SCHEMA_MAPS, ...SCHEMA_LISTS, ...SCHEMAS, ...NUMBERS, ...STRINGS, ...FREE];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a problem at the root is said to be. */
const ROOT = 'parameters';

function checkNode(node: unknown, at: string, problems: string[], dialect: SchemaDialect): void {
  if (typeof node === 'boolean') return;
  if (!isPlainObject(node)) {
    problems.push(`${at} must be a schema object or a boolean`);
    return;
  }
  for (const [keyword, value] of Object.entries(node)) {
    const where = `${at}.${keyword}`;
    if (dialect.lacking.has(keyword)) {
      problems.push(`${where} is not a supported JSON Schema keyword in ${dialect.name}`);
    } else if (keyword === '$schema' && at !== ROOT) {
      problems.push(`${where} is only allowed at the root`);
    } else if (SCHEMA_MAPS.has(keyword) || (keyword === 'definitions' && dialect.definitions)) {
      if (!isPlainObject(value)) problems.push(`${where} must be an object of schemas`);
      else for (const [name, child] of Object.entries(value)) checkNode(child, `${where}.${name}`, problems, dialect);
    } else if (SCHEMA_LISTS.has(keyword)) {
      if (!Array.isArray(value)) problems.push(`${where} must be an array of schemas`);
      else for (const [index, child] of value.entries()) checkNode(child, `${where}[${index}]`, problems, dialect);
    } else if (SCHEMAS.has(keyword)) {
      checkNode(value, where, problems, dialect);
    } else if (NUMBERS.has(keyword)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) problems.push(`${where} must be a number`);
    } else if (STRINGS.has(keyword)) {
      if (typeof value !== 'string') problems.push(`${where} must be a string`);
    } else if (keyword === 'type') {
      const types = Array.isArray(value) ? value : [value];
      if (types.length === 0 || types.some((type) => typeof type !== 'string' || !TYPES.has(type))) {
        problems.push(`${where} must be one of ${[...TYPES].join(', ')} (or an array of them), got ${JSON.stringify(value)}`);
      }
    } else if (keyword === 'required') {
      if (!Array.isArray(value) || value.some((name) => typeof name !== 'string'))
        problems.push(`${where} must be an array of property names`);
    } else if (keyword === 'enum') {
      if (!Array.isArray(value) || value.length === 0) problems.push(`${where} must be a non-empty array`);
    } else if (!FREE.has(keyword)) {
      problems.push(`${where} is not a supported JSON Schema keyword`);
    }
  }
}

/**
 * Checks a parameters schema at registration, without loading ajv (which would cost start-up
 * time): the root is an object schema, its `$schema` (if any) names a dialect the registry
 * validates, keywords are known in that dialect and their values well-formed. Throws a
 * {@link ConfigError} that names the skill and every problem.
 */
export function checkSchemaShape(skill: string, schema: JsonSchemaObject): void {
  if (!isPlainObject(schema) || schema.type !== 'object') {
    throw new ConfigError(`Invalid parameters schema for skill "${skill}": the root must be { "type": "object", … }.`);
  }
  const dialect = schemaDialectOf(skill, schema);
  const problems: string[] = [];
  checkNode(schema, ROOT, problems, dialect);
  if (problems.length > 0) throw new ConfigError(`Invalid parameters schema for skill "${skill}": ${problems.join('; ')}.`);
}
