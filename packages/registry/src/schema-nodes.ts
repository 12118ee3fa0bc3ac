/** A JSON Schema node that is an object (not a boolean schema). */
export type SchemaNode = Record<string, unknown>;

export function isPlainObject(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The node a local `$ref` (`#`, `#/$defs/<name>`, or `#/definitions/<name>` of a draft-07 or draft-06 schema,
 * the dialects registration lets keep `definitions`) points at in `root`; `undefined` for any
 * other reference.
 */
export function resolveLocalRef(root: SchemaNode, ref: unknown): SchemaNode | undefined {
  if (ref === '#') return root;
  const keyword = typeof ref === 'string' ? /^#\/(\$defs|definitions)\//.exec(ref)?.[1] : undefined;
  if (keyword === undefined) return undefined;
  const name = (ref as string)
    .slice(keyword.length + 3)
    .replaceAll('~1', '/')
    .replaceAll('~0', '~');
  const definitions = root[keyword];
  if (!isPlainObject(definitions) || !Object.hasOwn(definitions, name)) return undefined;
  const target = definitions[name];
  return isPlainObject(target) ? target : undefined;
}

function typesOf(node: SchemaNode): unknown[] | undefined {
  if (node.type === undefined) return undefined;
  return Array.isArray(node.type) ? node.type : [node.type];
}

/**
 * Whether `null` can be valid at `node` (of the schema `root`): its `type`, `enum` and `const` allow
 * it, and so do its `anyOf` / `oneOf` (some branch), `allOf` (every branch) and `$ref`. A node that
 * says nothing about the type accepts null. Meant for schemas without reference cycles through
 * `$ref` alone; a cycle counts as accepting null.
 */
export function acceptsNull(node: unknown, root: SchemaNode, seen: Set<SchemaNode> = new Set()): boolean {
  if (typeof node === 'boolean') return node;
  if (!isPlainObject(node) || seen.has(node)) return true;
  seen.add(node);
  const types = typesOf(node);
  if (types && !types.includes('null')) return false;
  if (Array.isArray(node.enum) && !node.enum.includes(null)) return false;
  if (node.const !== undefined && node.const !== null) return false;
  const branchAccepts = (branch: unknown) => acceptsNull(branch, root, new Set(seen));
  if (Array.isArray(node.anyOf) && !node.anyOf.some(branchAccepts)) return false;
  if (Array.isArray(node.oneOf) && !node.oneOf.some(branchAccepts)) return false;
  if (Array.isArray(node.allOf) && !node.allOf.every(branchAccepts)) return false;
  if (node.$ref !== undefined) return acceptsNull(resolveLocalRef(root, node.$ref), root, seen);
  return true;
}
