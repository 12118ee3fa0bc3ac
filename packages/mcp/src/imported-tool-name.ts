import { createHash } from 'node:crypto';

const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 6;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * Names a server's tools `mcp__<server>__<tool>`, folded to `[a-zA-Z0-9_-]` and at most 64
 * characters. A name that had to be cut, or that another tool of the list already took, gets a
 * short hash of the original names, so no tool silently replaces another.
 */
export function importedToolNames(server: string, tools: readonly string[]): string[] {
  const taken = new Set<string>();
  return tools.map((tool) => {
    const original = `mcp__${server}__${tool}`;
    const folded = original.replace(/[^a-zA-Z0-9_-]/g, '_');
    let name = folded.length <= MAX_NAME_LENGTH ? folded : withHash(folded, original);
    for (let attempt = 1; taken.has(name); attempt++) name = withHash(folded, `${original}\0${attempt}`);
    taken.add(name);
    return name;
  });
}

function withHash(folded: string, seed: string): string {
  return `${folded.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${shortHash(seed)}`;
}
