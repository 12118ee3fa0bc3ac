import type { JsonSchemaObject } from '@nexus/core';

/** What a string at one place of the arguments may be read as: bits of the constants below (0: it stays a string). */
type TextRule = number;
const AS_INTEGER = 1;
const AS_NUMBER = 2;
const AS_BOOLEAN = 4;

/** How the value at one place of the arguments is coerced. */
interface Plan {
  readonly text: TextRule;
  /** Copies an object found there, coercing what is inside it. */
  readonly object: ((value: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** Copies an array found there, coercing its items. */
  readonly array: ((value: unknown[]) => unknown[]) | undefined;
}

/** A number written the way JSON writes one: `10`, `-2.5`, `1e3` — not `0x10`, ` 10`, `Infinity` or ``. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function schemasIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return isPlainObject(value) ? Object.values(value) : [];
}

function hasDefault(schemas: unknown[]): boolean {
  return schemas.some((schema) => isPlainObject(schema) && schema.default !== undefined);
}

function fromText(text: string, rule: TextRule): unknown {
  if (rule & AS_BOOLEAN && (text === 'true' || text === 'false')) return text === 'true';
  if (!(rule & (AS_INTEGER | AS_NUMBER)) || !JSON_NUMBER.test(text)) return text;
  const value = Number(text);
  return Number.isFinite(value) && (rule & AS_NUMBER || Number.isInteger(value)) ? value : text;
}

/** The value as `plan` wants it; objects and arrays are copied, never changed. */
function applyPlan(plan: Plan, value: unknown): unknown {
  if (typeof value === 'string') return plan.text === 0 ? value : fromText(value, plan.text);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return plan.array ? plan.array(value) : value;
  return plan.object ? plan.object(value as Record<string, unknown>) : value;
}

/** The types a value at `node` may have, from `type` or the branches of `anyOf` / `oneOf`; `undefined` when any type goes. */
function typesOf(node: Record<string, unknown>): Set<string> | undefined {
  if (node.type !== undefined) return new Set(Array.isArray(node.type) ? node.type : [node.type]);
  const branches = node.anyOf ?? node.oneOf;
  if (!Array.isArray(branches)) return undefined;
  const union = new Set<string>();
  for (const branch of branches) {
    const types = isPlainObject(branch) ? typesOf(branch) : undefined;
    if (!types) return undefined;
    for (const type of types) union.add(type);
  }
  return union;
}

/** Numbers and booleans may be read from text where the node allows them and does not allow a string. */
function textRuleOf(node: Record<string, unknown>): TextRule {
  const types = typesOf(node);
  if (!types || types.has('string')) return 0;
  return (types.has('integer') ? AS_INTEGER : 0) | (types.has('number') ? AS_NUMBER : 0) | (types.has('boolean') ? AS_BOOLEAN : 0);
}

// The copy is a spread of the value, so only keys it owns are assigned: a `__proto__` key stays an own property.
function objectCoercion(node: Record<string, unknown>): Plan['object'] {
  const declaredSchemas = isPlainObject(node.properties) ? node.properties : {};
  const declared = Object.entries(declaredSchemas).flatMap(([key, schema]) => {
    const plan = planOf(schema);
    return plan ? [{ key, plan, inherited: key in Object.prototype }] : [];
  });
  const patterns = Object.entries(isPlainObject(node.patternProperties) ? node.patternProperties : {}).map(
    ([pattern, schema]) => [new RegExp(pattern, 'u'), planOf(schema)] as const,
  );
  const others = planOf(node.additionalProperties);
  const fillsDefaults = hasDefault(schemasIn(declaredSchemas));
  if (declared.length === 0 && !patterns.some(([, plan]) => plan) && !others && !fillsDefaults) return undefined;
  if (patterns.length === 0 && !others) {
    return (value) => {
      const copy = { ...value };
      for (const { key, plan, inherited } of declared) {
        const item = copy[key];
        if (item !== undefined && (!inherited || Object.hasOwn(copy, key))) copy[key] = applyPlan(plan, item);
      }
      return copy;
    };
  }
  const plans = new Map(declared.map(({ key, plan }) => [key, plan]));
  const known = new Set(Object.keys(declaredSchemas));
  const planFor = (key: string): Plan | undefined => {
    if (known.has(key)) return plans.get(key);
    const matching = patterns.find(([pattern]) => pattern.test(key));
    return matching ? matching[1] : others;
  };
  return (value) => {
    const copy = { ...value };
    for (const key of Object.keys(copy)) {
      const plan = planFor(key);
      if (plan) copy[key] = applyPlan(plan, copy[key]);
    }
    return copy;
  };
}

function arrayCoercion(node: Record<string, unknown>): Plan['array'] {
  const prefixSchemas = schemasIn(node.prefixItems);
  const prefix = prefixSchemas.map(planOf);
  const items = planOf(node.items);
  if (!items && !prefix.some(Boolean) && !hasDefault(prefixSchemas)) return undefined;
  return (value) =>
    value.map((item, index) => {
      const plan = index < prefix.length ? prefix[index] : items;
      return plan ? applyPlan(plan, item) : item;
    });
}

/**
 * The plan of one schema node: text read as a number or boolean where the node says so, and
 * objects and arrays copied where something inside them is coerced or gets a default (so ajv's
 * defaults never land in the caller's objects). `undefined` when nothing at or below the node changes.
 */
function planOf(node: unknown): Plan | undefined {
  if (!isPlainObject(node)) return undefined;
  const plan = { text: textRuleOf(node), object: objectCoercion(node), array: arrayCoercion(node) };
  return plan.text === 0 && !plan.object && !plan.array ? undefined : plan;
}

/**
 * Compiles a parameters schema into a function that copies the arguments and applies the one
 * coercion rule (DESIGN §4): only what models commonly send as text — `"10"` for an integer or
 * a number, `"true"` / `"false"` for a boolean — where a property's `type` (or the types of its
 * `anyOf` / `oneOf` branches) allows it and does not allow a string, at the top level and inside
 * `properties`, `patternProperties`, `additionalProperties`, `items` and `prefixItems`. Nothing
 * becomes a string and `null` stays `null`, so validation refuses those. The caller's objects
 * are never changed.
 */
export function compileTextCoercion(schema: JsonSchemaObject): (args: Record<string, unknown>) => Record<string, unknown> {
  return objectCoercion(schema) ?? ((args) => ({ ...args }));
}
