import { isDeepStrictEqual } from 'node:util';
import type { JsonSchemaObject } from '@nexus/core';
import { isPlainObject, resolveLocalRef, type SchemaNode } from './schema-nodes.js';

/** A parameters schema whose root providers accept: an object without top-level `allOf` / `anyOf` / `oneOf` / `not`. */
export interface ObjectRoot {
  /** The schema to send (the skill's own schema when its root was fine already). */
  readonly schema: JsonSchemaObject;
  /** Sentences about the alternatives the schema no longer says, for the tool's description. */
  readonly rules: readonly string[];
  /** What the schema no longer says and no rule describes (a branch's other keywords, a root `not`); empty when nothing. */
  readonly unsaid: readonly string[];
}

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;
type Combinator = (typeof COMBINATORS)[number];
/** Keywords refused at the root: the combinators by Anthropic and OpenAI, the others by OpenAI. */
const REFUSED_AT_ROOT = [...COMBINATORS, 'not', 'enum', 'const'];
/**
 * Left out too: providers read every schema as 2020-12 (Anthropic refuses others), and the
 * registry takes an older dialect's schema only when its keywords mean the same there.
 */
const LEFT_OUT = [...REFUSED_AT_ROOT, '$schema'];
/** Keywords of a branch that the merged root says (or that tell a model nothing it needs). */
const MERGED_BRANCH_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'description', 'title']);

const code = (name: string) => `\`${name}\``;
const propertiesOf = (node: SchemaNode): SchemaNode => (isPlainObject(node.properties) ? node.properties : {});
const requiredOf = (node: SchemaNode): string[] => (Array.isArray(node.required) ? node.required.map(String) : []);

/** `name`, or `` `name` = "value" `` when the branch fixes its value (the tag of a tagged union). */
function describeName(name: string, branch: SchemaNode): string {
  const schema = propertiesOf(branch)[name];
  if (!isPlainObject(schema)) return code(name);
  const fixed = schema.const ?? (Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum[0] : undefined);
  return fixed === undefined ? code(name) : `${code(name)} = ${JSON.stringify(fixed)}`;
}

/** "Give at least one of: `a`, or `b` with `c`." from what each branch requires; `undefined` when an anyOf branch needs nothing. */
function describeAlternatives(combinator: 'anyOf' | 'oneOf', branches: SchemaNode[]): string | undefined {
  const requiredLists = branches.map(requiredOf);
  if (combinator === 'anyOf' && requiredLists.some((list) => list.length === 0)) return undefined;
  const alternatives = requiredLists.map((list, index) =>
    list.length === 0 ? 'none of them' : list.map((name) => describeName(name, branches[index] as SchemaNode)).join(' with '),
  );
  return `Give ${combinator === 'anyOf' ? 'at least' : 'exactly'} one of: ${alternatives.join(', or ')}.`;
}

/** A branch as an object schema (a local `$ref` followed), noting in `unsaid` what the merged root cannot say of it. */
function branchOf(root: SchemaNode, branch: unknown, combinator: Combinator, unsaid: string[]): SchemaNode {
  if (!isPlainObject(branch)) {
    unsaid.push(`a boolean schema in the root's ${combinator}`);
    return {};
  }
  let node = branch;
  if (branch.$ref !== undefined) {
    const { $ref, ...siblings } = branch;
    const target = resolveLocalRef(root, $ref);
    if (!target) unsaid.push(`the reference ${String($ref)} in the root's ${combinator}`);
    node = { ...target, ...siblings };
  }
  for (const keyword of Object.keys(node)) {
    if (!MERGED_BRANCH_KEYWORDS.has(keyword)) unsaid.push(`${keyword} in the root's ${combinator}`);
  }
  if (node.type !== undefined && node.type !== 'object') unsaid.push(`a branch of the root's ${combinator} that is not an object`);
  return node;
}

function merge(root: SchemaNode): ObjectRoot {
  const { allOf, anyOf, oneOf, not, enum: _enum, const: _const, $schema, ...rest } = root;
  const own = propertiesOf(root);
  /** The schemas the branches declare for each property the root does not declare itself. */
  const declarations = new Map<string, unknown[]>();
  const required = new Set(requiredOf(root));
  const rules: string[] = [];
  const unsaid = REFUSED_AT_ROOT.filter((keyword) => !COMBINATORS.includes(keyword as Combinator) && root[keyword] !== undefined).map(
    (keyword) => `the root's ${keyword}`,
  );
  let closed = root.additionalProperties === false;
  for (const combinator of COMBINATORS) {
    const list = root[combinator];
    if (!Array.isArray(list) || list.length === 0) continue;
    const branches = list.map((branch) => branchOf(root, branch, combinator, unsaid));
    for (const branch of branches) {
      for (const [name, schema] of Object.entries(propertiesOf(branch))) {
        if (Object.hasOwn(own, name)) continue;
        const schemas = declarations.get(name) ?? [];
        if (!schemas.some((known) => isDeepStrictEqual(known, schema))) schemas.push(schema);
        declarations.set(name, schemas);
      }
    }
    const requiredLists = branches.map(requiredOf);
    const requiredNow =
      combinator === 'allOf' ? requiredLists.flat() : requiredLists.reduce((common, list) => common.filter((name) => list.includes(name)));
    for (const name of requiredNow) required.add(name);
    // A value valid for the schema has only the properties of a closed branch it matches, all of them declared in the merge.
    const closedBranches = branches.filter((branch) => branch.additionalProperties === false).length;
    if (combinator === 'allOf' ? closedBranches > 0 : closedBranches === branches.length) closed = true;
    if (combinator !== 'allOf') {
      const rule = describeAlternatives(combinator, branches);
      if (rule) rules.push(rule);
    }
  }
  const merged = Object.fromEntries(
    [...declarations].map(([name, schemas]) => [name, schemas.length === 1 ? schemas[0] : { anyOf: schemas }]),
  );
  const schema: SchemaNode = { ...rest, properties: { ...own, ...merged } };
  if (required.size > 0) schema.required = [...required];
  if (closed) schema.additionalProperties = false;
  return { schema: schema as JsonSchemaObject, rules, unsaid };
}

// Definitions are built for every model request, so each schema is merged once.
const merged = new WeakMap<JsonSchemaObject, ObjectRoot>();

/**
 * The skill's parameters with the root every provider accepts. Anthropic refuses a top-level
 * `allOf` / `anyOf` / `oneOf` (the whole request fails, not just that tool) and OpenAI also a
 * top-level `not` or `enum`: those are merged into one object root — the branches' properties
 * together (a property the branches declare differently as an `anyOf` of its schemas), required
 * what every `anyOf` / `oneOf` branch requires and what any `allOf` branch requires, closed when
 * a value can only have the properties of a closed branch — and the alternatives said in `rules`.
 * The merge accepts every value the schema accepts; the original schema stays the validation
 * contract. `$schema` is left out as well. A schema without those keywords is returned as it is.
 */
export function toObjectRoot(parameters: JsonSchemaObject): ObjectRoot {
  const root = parameters as SchemaNode;
  if (!LEFT_OUT.some((keyword) => root[keyword] !== undefined)) return { schema: parameters, rules: [], unsaid: [] };
  let objectRoot = merged.get(parameters);
  if (!objectRoot) {
    objectRoot = merge(root);
    merged.set(parameters, objectRoot);
  }
  return objectRoot;
}
