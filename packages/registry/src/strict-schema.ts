import type { JsonSchemaObject } from '@nexus/core';
import { toObjectRoot } from './object-root.js';
import { acceptsNull, isPlainObject, resolveLocalRef, type SchemaNode } from './schema-nodes.js';

/** The provider whose strict rules a schema is rewritten for. */
export type StrictDialect = 'openai' | 'anthropic';

/** A parameters schema rewritten for a provider's strict mode. */
export interface StrictSchema {
  readonly schema: JsonSchemaObject;
  /** Sentences about the arguments as a whole that the schema no longer says (e.g. "give `a` or `b`"), for the tool's description. */
  readonly rules: readonly string[];
}

/** Keywords said in the description instead, unless the dialect keeps them: limits by the type they apply to, and annotations. */
const DESCRIBED = new Set([
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  ...['minLength', 'maxLength', 'pattern', 'format'],
  ...['minItems', 'maxItems', 'uniqueItems'],
  ...['minProperties', 'maxProperties', 'dependentRequired'],
  ...['default', 'examples', 'deprecated'],
]);
/** Annotations that tell a model nothing it needs, and `propertyNames`, moot once objects are closed. */
const DROPPED = new Set(['title', '$comment', '$schema', '$id', 'readOnly', 'writeOnly', 'propertyNames']);
const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
/** String formats Anthropic's strict tool use enforces. */
const ANTHROPIC_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

interface DialectRules {
  /** OpenAI: every property required, optional ones nullable. Anthropic: optional ones stay optional. */
  readonly requireEvery: boolean;
  /** Whether the provider enforces this keyword itself (it stays in the schema). */
  keeps(keyword: string, value: unknown): boolean;
  readonly recursion: boolean;
  /** Per-schema limits of the provider; past one, the tool is sent non-strict. */
  readonly limits: { depth: number; properties: number; enumValues: number; optional: number; unions: number };
}

// OpenAI: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas — constraint keywords
// (pattern, minimum, …) are only enforced by some models, so all of them go into the description.
// Anthropic: https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations
const DIALECTS: Record<StrictDialect, DialectRules> = {
  openai: {
    requireEvery: true,
    keeps: () => false,
    recursion: true,
    limits: { depth: 10, properties: 5000, enumValues: 1000, optional: Number.POSITIVE_INFINITY, unions: Number.POSITIVE_INFINITY },
  },
  anthropic: {
    requireEvery: false,
    keeps: (keyword, value) =>
      keyword === 'default' ||
      (keyword === 'format' && ANTHROPIC_FORMATS.has(value as string)) ||
      (keyword === 'minItems' && (value === 0 || value === 1)),
    recursion: false,
    limits: {
      depth: Number.POSITIVE_INFINITY,
      properties: Number.POSITIVE_INFINITY,
      enumValues: Number.POSITIVE_INFINITY,
      optional: 24,
      unions: 16,
    },
  },
};

/** Thrown inside the conversion when the schema has no strict equivalent; never leaves this module. */
class NoStrictForm extends Error {}

function refuse(reason: string): never {
  throw new NoStrictForm(reason);
}

interface Conversion {
  readonly dialect: DialectRules;
  readonly root: SchemaNode;
  readonly counts: { properties: number; enumValues: number; optional: number; unions: number };
}

function count(conversion: Conversion, what: keyof Conversion['counts'], amount: number): void {
  conversion.counts[what] += amount;
  if (conversion.counts[what] > conversion.dialect.limits[what]) refuse(`more than ${conversion.dialect.limits[what]} ${what}`);
}

const code = (name: string) => `\`${name}\``;
const plural = (amount: number, unit: string) => (unit === '' ? '' : ` ${unit}${amount === 1 ? '' : 's'}`);

/** "1 to 10 characters", "at least 1", "at most 5 items"; `undefined` without either bound. */
function bounds(lower: unknown, upper: unknown, unit: string): string | undefined {
  const low = typeof lower === 'number' ? lower : undefined;
  const high = typeof upper === 'number' ? upper : undefined;
  if (low !== undefined && high !== undefined) return `${low} to ${high}${plural(high, unit)}`;
  if (low !== undefined) return unit === 'character' && low === 1 ? 'not empty' : `at least ${low}${plural(low, unit)}`;
  if (high !== undefined) return `at most ${high}${plural(high, unit)}`;
  return undefined;
}

/** The constraints of `node` the dialect does not keep, as short phrases for the description. */
function describeConstraints(node: SchemaNode, dialect: DialectRules): string[] {
  const moved = (keyword: string) => (node[keyword] === undefined || dialect.keeps(keyword, node[keyword]) ? undefined : node[keyword]);
  const notes: (string | undefined)[] = [];
  // A description that already speaks of the default (in words a model reads better) keeps it that way.
  const mentionsDefault = typeof node.description === 'string' && /\bdefault\b/i.test(node.description);
  if (moved('default') !== undefined && !mentionsDefault) notes.push(`default: ${JSON.stringify(node.default)}`);
  notes.push(bounds(moved('minimum'), moved('maximum'), ''));
  if (moved('exclusiveMinimum') !== undefined) notes.push(`greater than ${String(node.exclusiveMinimum)}`);
  if (moved('exclusiveMaximum') !== undefined) notes.push(`less than ${String(node.exclusiveMaximum)}`);
  if (moved('multipleOf') !== undefined) notes.push(`a multiple of ${String(node.multipleOf)}`);
  notes.push(bounds(moved('minLength'), moved('maxLength'), 'character'));
  if (moved('pattern') !== undefined) notes.push(`matching the regular expression ${code(String(node.pattern))}`);
  if (moved('format') !== undefined) notes.push(`format: ${String(node.format)}`);
  notes.push(bounds(moved('minItems'), moved('maxItems'), 'item'));
  if (moved('uniqueItems') === true) notes.push('no duplicates');
  notes.push(bounds(moved('minProperties'), moved('maxProperties'), 'property'));
  const dependencies = moved('dependentRequired');
  if (isPlainObject(dependencies)) {
    for (const [key, needed] of Object.entries(dependencies)) {
      if (Array.isArray(needed) && needed.length > 0)
        notes.push(`with ${code(key)}, also give ${needed.map(String).map(code).join(' and ')}`);
    }
  }
  const examples = moved('examples');
  if (Array.isArray(examples) && examples.length > 0) notes.push(`e.g. ${examples.map((example) => JSON.stringify(example)).join(', ')}`);
  if (moved('deprecated') === true) notes.push('deprecated');
  return notes.filter((note): note is string => note !== undefined);
}

/** The description with the notes added in parentheses before a closing full stop, or into its closing parentheses. */
function withNotes(description: unknown, notes: string[]): unknown {
  if (notes.length === 0) return description;
  const text = notes.join('; ');
  if (typeof description !== 'string' || description === '') return text;
  const stop = description.endsWith('.') ? '.' : '';
  const body = description.slice(0, description.length - stop.length);
  return body.endsWith(')') ? `${body.slice(0, -1)}; ${text})${stop}` : `${body} (${text})${stop}`;
}

function typesOf(node: SchemaNode): string[] {
  if (node.type === undefined) return [];
  return (Array.isArray(node.type) ? node.type : [node.type]).map(String);
}

/** The converted node that also accepts `null`: a type union for simple types, otherwise `anyOf` with a null branch. */
function nullable(node: SchemaNode): SchemaNode {
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  const types = typesOf(node);
  const enumWithNull = Array.isArray(node.enum) ? { enum: [...node.enum, null] } : {};
  if (node.$ref === undefined && node.const === undefined) {
    if (types.length > 0 && types.every((type) => PRIMITIVE_TYPES.has(type))) return { ...node, type: [...types, 'null'], ...enumWithNull };
    if (types.length === 0 && Array.isArray(node.enum)) return { ...node, ...enumWithNull };
  }
  const { description, ...rest } = node;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}

function convertProperties(node: SchemaNode, conversion: Conversion, depth: number): { properties: SchemaNode; required: string[] } {
  const declared = isPlainObject(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
  const names = Object.keys(declared);
  count(conversion, 'properties', names.length);
  const properties: SchemaNode = {};
  for (const name of names) {
    const original = declared[name];
    let converted = convertNode(original, conversion, depth + 1);
    if (!required.has(name)) {
      if (conversion.dialect.requireEvery) {
        if (!acceptsNull(original, conversion.root)) converted = nullable(converted);
      } else {
        count(conversion, 'optional', 1);
      }
    }
    if (Array.isArray(converted.anyOf) || Array.isArray(converted.type)) count(conversion, 'unions', 1);
    properties[name] = converted;
  }
  return { properties, required: conversion.dialect.requireEvery ? names : names.filter((name) => required.has(name)) };
}

function checkReference(ref: unknown, conversion: Conversion): void {
  if (!resolveLocalRef(conversion.root, ref)) refuse(`reference ${String(ref)} outside the schema's $defs`);
}

/** One schema node in the dialect's strict form, its dropped constraints described. */
function convertNode(node: unknown, conversion: Conversion, depth: number, isRoot = false): SchemaNode {
  if (!isPlainObject(node)) refuse('a boolean schema');
  const { dialect } = conversion;
  const types = typesOf(node);
  const isObject = types.includes('object') || node.properties !== undefined;
  const isArray = types.includes('array') || node.items !== undefined;
  const union = node.anyOf ?? node.oneOf;
  if (node.anyOf !== undefined && node.oneOf !== undefined) refuse('both anyOf and oneOf');
  if (
    (union !== undefined || node.$ref !== undefined) &&
    (types.length > 0 || isObject || isArray || node.enum !== undefined || node.const !== undefined)
  ) {
    refuse('anyOf, oneOf or $ref beside other structure');
  }
  if (
    types.length === 0 &&
    !isObject &&
    !isArray &&
    union === undefined &&
    node.$ref === undefined &&
    node.enum === undefined &&
    node.const === undefined
  ) {
    refuse('a schema that accepts anything');
  }
  if (isObject && depth > dialect.limits.depth) refuse(`objects nested deeper than ${dialect.limits.depth}`);
  const out: SchemaNode = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'properties' || keyword === 'required') continue; // written with the object's closing keywords below
    if (keyword === 'description') out.description = value;
    else if (keyword === 'type' || keyword === 'const') out[keyword] = value;
    else if (keyword === 'enum') {
      if ((value as unknown[]).some((item) => typeof item === 'object' && item !== null)) refuse('an enum of objects or arrays');
      count(conversion, 'enumValues', (value as unknown[]).length);
      out.enum = value;
    } else if (keyword === 'additionalProperties') {
      if (value !== false) refuse('additionalProperties other than false');
    } else if (keyword === 'items') out.items = convertNode(value, conversion, depth);
    else if (keyword === 'anyOf' || keyword === 'oneOf')
      out.anyOf = (value as unknown[]).map((branch) => convertNode(branch, conversion, depth));
    else if (keyword === '$ref') {
      checkReference(value, conversion);
      out.$ref = value;
    } else if (dialect.keeps(keyword, value)) out[keyword] = value;
    else if (!DESCRIBED.has(keyword) && !DROPPED.has(keyword) && !(isRoot && keyword === '$defs')) refuse(`the keyword ${keyword}`);
  }
  if (isObject) {
    if (node.properties === undefined && !isRoot) refuse('an object without declared properties');
    if (types.length === 0) out.type = 'object';
    Object.assign(out, convertProperties(node, conversion, depth), { additionalProperties: false });
    if ((out.required as string[]).length === 0 && !dialect.requireEvery) delete out.required;
  } else if (isArray) {
    if (node.items === undefined) refuse('an array without items');
    if (types.length === 0) out.type = 'array';
  }
  if (!isRoot) {
    const description = withNotes(node.description, describeConstraints(node, dialect));
    if (description !== undefined) out.description = description;
  }
  return out;
}

/** Whether the schema refers to itself, directly or through its $defs. */
function isRecursive(root: SchemaNode): boolean {
  const refsIn = (value: unknown, into: string[] = []): string[] => {
    if (Array.isArray(value)) for (const item of value) refsIn(item, into);
    else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (key === '$ref' && typeof item === 'string') into.push(item);
        else if (key !== '$defs') refsIn(item, into);
      }
    }
    return into;
  };
  const definitions = isPlainObject(root.$defs) ? root.$defs : {};
  const visiting = new Set<unknown>();
  const done = new Set<unknown>();
  const cycles = (node: unknown): boolean => {
    if (done.has(node)) return false;
    if (visiting.has(node)) return true;
    visiting.add(node);
    const found = refsIn(node).some((ref) => {
      const target = resolveLocalRef(root, ref);
      return target === root || (target !== undefined && cycles(target));
    });
    visiting.delete(node);
    done.add(node);
    return found;
  };
  return cycles(root) || Object.values(definitions).some(cycles);
}

/**
 * Rewrites a skill's parameters schema for a provider's strict mode, or returns `undefined` when it
 * has no strict form (an open-ended map, `patternProperties`, `not`, `if`, a nested `allOf`, a
 * schema accepting anything, a recursive one for Anthropic, a provider limit passed) — the tool is
 * then sent non-strict.
 *
 * Both dialects: the object root of {@link toObjectRoot} (top-level `allOf` / `anyOf` / `oneOf`
 * merged, the alternatives said in `rules`; no strict form when the merge leaves something
 * unsaid), every object `additionalProperties: false`, `oneOf` as `anyOf`, and the keywords the
 * provider does not enforce moved into the description ("(default: 10; 1 to 100)"). OpenAI also wants every property required: optional ones become nullable, and
 * the registry drops those nulls before validation so defaults still apply. The original schema
 * stays the validation contract.
 */
export function toStrictSchema(schema: JsonSchemaObject, dialect: StrictDialect): StrictSchema | undefined {
  try {
    const objectRoot = toObjectRoot(schema);
    if (objectRoot.unsaid.length > 0) refuse(objectRoot.unsaid.join(', '));
    const root = objectRoot.schema as SchemaNode;
    if (root.type !== 'object') refuse('a root that is not an object');
    const rules = DIALECTS[dialect];
    if (!rules.recursion && isRecursive(root)) refuse('a recursive schema');
    const conversion: Conversion = { dialect: rules, root, counts: { properties: 0, enumValues: 0, optional: 0, unions: 0 } };
    const converted = convertNode(root, conversion, 1, true);
    const definitions = root.$defs;
    if (isPlainObject(definitions)) {
      converted.$defs = Object.fromEntries(Object.entries(definitions).map(([name, node]) => [name, convertNode(node, conversion, 1)]));
    }
    const rootNotes = describeConstraints(root, rules);
    const rootRules = rootNotes.length > 0 ? [`Arguments: ${rootNotes.join('; ')}.`] : [];
    return { schema: converted as JsonSchemaObject, rules: [...objectRoot.rules, ...rootRules] };
  } catch (error) {
    if (error instanceof NoStrictForm) return undefined;
    throw error;
  }
}
