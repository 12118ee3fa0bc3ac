import picomatch from 'picomatch';

/**
 * Tests relative paths (`src/a.ts`) against glob patterns the way ripgrep's `-g` does: a
 * pattern without a slash matches the file name at any depth (`*.ts`), one with a slash matches
 * the whole path from the search root (`src/**\/*.ts`). Dotfiles match like any other name.
 */
export function createGlobMatcher(patterns: string | readonly string[]): (relativePath: string) => boolean {
  const list = typeof patterns === 'string' ? [patterns] : [...patterns];
  const byName = list.filter((pattern) => !pattern.includes('/'));
  const byPath = list.filter((pattern) => pattern.includes('/'));
  const nameMatch = byName.length > 0 ? picomatch(byName, { dot: true }) : undefined;
  const pathMatch =
    byPath.length > 0
      ? picomatch(
          byPath.map((pattern) => pattern.replace(/^\.\//, '')),
          { dot: true },
        )
      : undefined;
  return (relativePath) => {
    if (pathMatch?.(relativePath)) return true;
    if (!nameMatch) return false;
    const slash = relativePath.lastIndexOf('/');
    return nameMatch(slash === -1 ? relativePath : relativePath.slice(slash + 1));
  };
}

/** A pattern's regular expression source for {@link createGlobMatcher}'s rules, for worker threads. */
export function globToRegExpSource(pattern: string): { source: string; byName: boolean } {
  const byName = !pattern.includes('/');
  return { source: picomatch.makeRe(byName ? pattern : pattern.replace(/^\.\//, ''), { dot: true }).source, byName };
}
