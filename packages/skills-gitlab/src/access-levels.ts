/** GitLab access levels by the names the skills accept. */
const LEVELS: Record<string, number> = { no_access: 0, developer: 30, maintainer: 40 };
const NAMES: Record<number, string> = {
  0: 'no_access',
  5: 'minimal_access',
  10: 'guest',
  15: 'planner',
  20: 'reporter',
  30: 'developer',
  40: 'maintainer',
  50: 'owner',
  60: 'admin',
};

/** The names `push_level`, `merge_level` and `create_level` accept. */
export const ACCESS_LEVEL_NAMES = Object.keys(LEVELS);

/** The numeric level of a name (default maintainer). */
export function accessLevel(name: string | undefined): number {
  return LEVELS[name ?? 'maintainer'] ?? 40;
}

/** The name of a numeric level (`level_N` for unnamed ones). */
export function accessLevelName(level: number): string {
  return NAMES[level] ?? `level_${level}`;
}

/** Names of the levels in GitLab's `*_access_levels` lists. */
export function accessLevelNames(levels: Array<{ access_level: number }> | undefined): string {
  return (levels ?? []).map((entry) => accessLevelName(entry.access_level)).join(', ') || 'none';
}
