/** One file of a diff as GitLab returns it (MR diffs, commit diffs, comparisons). */
export interface FileDiff {
  old_path: string;
  new_path: string;
  new_file?: boolean;
  renamed_file?: boolean;
  deleted_file?: boolean;
  diff?: string;
}

/** Lines added and removed in one file's unified diff (headers `+++`/`---` excluded). */
export function diffStats(diff: string | undefined): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of (diff ?? '').split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added++;
    else if (line.startsWith('-') && !line.startsWith('---')) removed++;
  }
  return { added, removed };
}

function changeLetter(diff: FileDiff): string {
  if (diff.new_file) return 'A';
  if (diff.deleted_file) return 'D';
  if (diff.renamed_file) return 'R';
  return 'M';
}

/** `M path (+a/-d)` per file, `R old → new` for renames. */
export function changeLines(diffs: readonly FileDiff[]): string[] {
  return diffs.map((diff) => {
    const stats = diffStats(diff.diff);
    const path = diff.renamed_file ? `${diff.old_path} → ${diff.new_path}` : diff.new_path;
    return `${changeLetter(diff)} ${path} (+${stats.added}/-${stats.removed})`;
  });
}
