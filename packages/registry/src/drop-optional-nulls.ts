import type { JsonSchemaObject } from '@nexus/core';
import { acceptsNull, isPlainObject, resolveLocalRef, type SchemaNode } from './schema-nodes.js';

/** What to do with an object or array found at one place of the arguments. */
interface NullPlan {
  /** Keys whose `null` means "not given": optional, and no schema declaring them accepts null. */
  readonly drop: Set<string>;
  /** Plans of the values under each key. */
  readonly children: Map<string, NullPlan[]>;
  /** Plans of an array's items. */
  readonly items: NullPlan[];
}

/** The node and every branch that applies to the same value: `$ref` targets and `anyOf` / `oneOf` / `allOf` members, nested. */
function branchesOf(node: SchemaNode, root: SchemaNode, into: SchemaNode[] = []): SchemaNode[] {
  if (into.includes(node)) return into;
  into.push(node);
  const target = node.$ref === undefined ? undefined : resolveLocalRef(root, node.$ref);
  if (target) branchesOf(target, root, into);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const branch of list) if (isPlainObject(branch)) branchesOf(branch, root, into);
  }
  return into;
}

/** Keys required whichever branch the value takes: the node's own `required` and those of its `allOf` members. */
function alwaysRequired(node: SchemaNode): Set<string> {
  const lists = [
    node.required,
    ...(Array.isArray(node.allOf) ? node.allOf.map((branch) => (isPlainObject(branch) ? branch.required : [])) : []),
  ];
  return new Set(lists.flatMap((list) => (Array.isArray(list) ? list.filter((key): key is string => typeof key === 'string') : [])));
}

function planOf(node: SchemaNode, root: SchemaNode, plans: Map<SchemaNode, NullPlan>): NullPlan {
  const known = plans.get(node);
  if (known) return known;
  const plan: NullPlan = { drop: new Set(), children: new Map(), items: [] };
  plans.set(node, plan); // before the children, so a recursive schema reuses this plan
  const declarations = new Map<string, unknown[]>();
  for (const branch of branchesOf(node, root)) {
    if (isPlainObject(branch.properties)) {
      for (const [key, schema] of Object.entries(branch.properties)) declarations.set(key, [...(declarations.get(key) ?? []), schema]);
    }
    if (isPlainObject(branch.items)) plan.items.push(planOf(branch.items, root, plans));
  }
  const required = alwaysRequired(node);
  for (const [key, schemas] of declarations) {
    if (!required.has(key) && schemas.every((schema) => !acceptsNull(schema, root))) plan.drop.add(key);
    const children = schemas.filter(isPlainObject).map((schema) => planOf(schema, root, plans));
    if (children.length > 0) plan.children.set(key, children);
  }
  return plan;
}

/** Whether applying `plan` can change anything. */
function changesAnything(plan: NullPlan, seen = new Set<NullPlan>()): boolean {
  if (seen.has(plan)) return false;
  seen.add(plan);
  if (plan.drop.size > 0) return true;
  return [...plan.children.values()]
    .flat()
    .concat(plan.items)
    .some((child) => changesAnything(child, seen));
}

/** `value` with the plan applied; objects and arrays are copied when something in them changes, never changed in place. */
function applyPlan(plan: NullPlan, value: unknown): unknown {
  if (Array.isArray(value)) {
    if (plan.items.length === 0) return value;
    const items = value.map((item) => plan.items.reduce<unknown>((current, itemPlan) => applyPlan(itemPlan, current), item));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (!isPlainObject(value)) return value;
  let copy: SchemaNode | undefined;
  for (const key of plan.drop) {
    if (Object.hasOwn(value, key) && value[key] === null) {
      copy ??= { ...value };
      delete copy[key];
    }
  }
  for (const [key, children] of plan.children) {
    if (!Object.hasOwn(value, key) || value[key] === null) continue;
    const changed = children.reduce<unknown>((current, child) => applyPlan(child, current), value[key]);
    if (changed !== value[key]) {
      copy ??= { ...value };
      // defineProperty, so a property named `__proto__` stays a property
      Object.defineProperty(copy, key, { value: changed, writable: true, enumerable: true, configurable: true });
    }
  }
  return copy ?? value;
}

const compiled = new WeakMap<JsonSchemaObject, NullPlan | null>();

/**
 * The arguments without the `null`s a model sends for optional parameters it leaves out — strict
 * function calling (OpenAI) makes every parameter required and optional ones nullable — so the
 * schema's defaults apply and the original schema stays the validation contract. Only a property
 * that is not required and whose schema does not itself accept `null` loses its `null`, at the top
 * level and inside nested objects and array items; a required parameter sent as `null` is left for
 * validation to refuse. The caller's objects are never changed: what changes is copied.
 */
export function dropOptionalNulls<T>(schema: JsonSchemaObject, args: T): T {
  let plan = compiled.get(schema);
  if (plan === undefined) {
    const root = schema as SchemaNode;
    const built = planOf(root, root, new Map());
    plan = changesAnything(built) ? built : null;
    compiled.set(schema, plan);
  }
  return plan === null ? args : (applyPlan(plan, args) as T);
}
