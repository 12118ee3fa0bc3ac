import { createHash } from 'node:crypto';

const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 6;
/** A server name used as it is: allowed characters, no `__` and no `_` at either end, so it cannot run into the separators. */
const PLAIN_SERVER_NAME = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;

function shortHash(...parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * The server's part of its tools' names: the server name when it is plain, else the name folded
 * (each run of other characters and underscores becomes one `_`, none at either end) plus a short
 * hash of the name, so `acme.tools` never takes the names of `acme_tools`, whichever is configured.
 */
function serverPart(server: string): string {
  if (PLAIN_SERVER_NAME.test(server)) return server;
  const folded = server.replace(/[^a-zA-Z0-9-]+/g, '_').replace(/^_|_$/g, '');
  return folded === '' ? shortHash(server) : `${folded}_${shortHash(server)}`;
}

/**
 * Names a server's tools `mcp__<server>__<tool>`, valid tool names (`[a-zA-Z0-9_-]`, at most 64
 * characters) that depend only on the server's name and its tool list — never on other servers or
 * the order of the configuration:
 * - a server name that is not plain (see {@link serverPart}) is folded and gets a short hash of itself;
 * - a tool name is folded; one that had to be, and whose folded name another tool of the list also
 *   has, gets a short hash of the server and tool names (a tool that needed no folding keeps its name);
 * - a name over 64 characters is cut and gets that hash too.
 */
export function importedToolNames(server: string, tools: readonly string[]): string[] {
  const prefix = `mcp__${serverPart(server)}__`;
  const folded = tools.map((tool) => prefix + tool.replace(/[^a-zA-Z0-9_-]/g, '_'));
  const claims = new Map<string, number>();
  for (const name of folded) claims.set(name, (claims.get(name) ?? 0) + 1);
  const taken = new Set<string>();
  return tools.map((tool, index) => {
    const name = folded[index] as string;
    const kept = name.length <= MAX_NAME_LENGTH && (name === prefix + tool || claims.get(name) === 1);
    let chosen = kept ? name : withHash(name, shortHash(server, tool));
    // Only a server listing a name twice, or a hash meeting a listed name, gets this far.
    for (let attempt = 1; taken.has(chosen); attempt++) chosen = withHash(name, shortHash(server, tool, String(attempt)));
    taken.add(chosen);
    return chosen;
  });
}

function withHash(name: string, hash: string): string {
  return `${name.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}
