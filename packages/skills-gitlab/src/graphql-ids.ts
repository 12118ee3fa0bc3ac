/** GitLab GraphQL global ids (`gid://gitlab/<Model>/<id>`) from and to the numeric ids REST uses. */

/** `gid://gitlab/<model>/<id>`, e.g. `globalId('Iteration', 52)`. */
export function globalId(model: string, id: number | string): string {
  return `gid://gitlab/${model}/${id}`;
}

/** The numeric id at the end of a global id (`gid://gitlab/WorkItem/701` → 701). */
export function numericId(gid: string): number {
  return Number(gid.slice(gid.lastIndexOf('/') + 1));
}
