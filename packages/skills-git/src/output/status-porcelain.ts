/** One changed, untracked or ignored path in {@link GitStatus}. */
export interface GitStatusEntry {
  kind: 'changed' | 'renamed' | 'copied' | 'unmerged' | 'untracked' | 'ignored';
  /** Status in the index (`M`, `A`, `D`, `R` …; `.` unchanged), as porcelain v2 reports it. */
  index: string;
  /** Status in the working tree, likewise. */
  worktree: string;
  path: string;
  /** The path before a rename or copy. */
  originalPath?: string;
}

/** `git status --porcelain=v2 --branch`, parsed: the git skill's `data.status`. */
export interface GitStatus {
  branch: {
    /** Branch name; `null` when HEAD is detached. */
    head: string | null;
    /** Commit of HEAD; `null` before the first commit. */
    oid: string | null;
    upstream: string | null;
    ahead: number | null;
    behind: number | null;
  };
  entries: GitStatusEntry[];
  /** No changed, unmerged or untracked paths. */
  clean: boolean;
}

function afterFields(record: string, count: number): string {
  let index = 0;
  for (let field = 0; field < count; field++) index = record.indexOf(' ', index) + 1;
  return record.slice(index);
}

/** Parses `git status --porcelain=v2 --branch -z` output. Incomplete trailing records are ignored. */
export function parseStatusPorcelainV2(text: string): GitStatus {
  const status: GitStatus = { branch: { head: null, oid: null, upstream: null, ahead: null, behind: null }, entries: [], clean: true };
  const records = text.split('\0');
  for (let position = 0; position < records.length; position++) {
    const record = records[position] as string;
    const [type, xy = '..'] = record.split(' ', 2);
    const index = xy[0] ?? '.';
    const worktree = xy[1] ?? '.';
    if (type === '#') {
      const [, name, ...values] = record.split(' ');
      const value = values.join(' ');
      if (name === 'branch.oid') status.branch.oid = value === '(initial)' ? null : value;
      else if (name === 'branch.head') status.branch.head = value === '(detached)' ? null : value;
      else if (name === 'branch.upstream') status.branch.upstream = value;
      else if (name === 'branch.ab') {
        const match = /^\+(\d+) -(\d+)$/.exec(value);
        if (match) [status.branch.ahead, status.branch.behind] = [Number(match[1]), Number(match[2])];
      }
    } else if (type === '1') status.entries.push({ kind: 'changed', index, worktree, path: afterFields(record, 8) });
    else if (type === '2' && position + 1 < records.length) {
      const score = record.split(' ')[8] ?? '';
      status.entries.push({
        kind: score.startsWith('C') ? 'copied' : 'renamed',
        index,
        worktree,
        path: afterFields(record, 9),
        originalPath: records[++position] as string,
      });
    } else if (type === 'u') status.entries.push({ kind: 'unmerged', index, worktree, path: afterFields(record, 10) });
    else if (type === '?') status.entries.push({ kind: 'untracked', index: '?', worktree: '?', path: record.slice(2) });
    else if (type === '!') status.entries.push({ kind: 'ignored', index: '!', worktree: '!', path: record.slice(2) });
  }
  status.clean = !status.entries.some((entry) => entry.kind !== 'ignored');
  return status;
}

/** Renders a {@link GitStatus} the way `git status --short --branch` prints it. */
export function formatStatus(status: GitStatus): string {
  const { head, oid, upstream, ahead, behind } = status.branch;
  const counts = [ahead ? `ahead ${ahead}` : '', behind ? `behind ${behind}` : ''].filter(Boolean).join(', ');
  let branch = head === null ? 'HEAD (no branch)' : oid === null ? `No commits yet on ${head}` : head;
  if (head !== null && upstream !== null) branch += `...${upstream}`;
  if (counts) branch += ` [${counts}]`;
  const lines = [`## ${branch}`];
  for (const entry of status.entries) {
    const code = `${entry.index}${entry.worktree}`.replaceAll('.', ' ');
    lines.push(`${code} ${entry.originalPath === undefined ? entry.path : `${entry.originalPath} -> ${entry.path}`}`);
  }
  if (status.clean) lines.push('nothing to commit, working tree clean');
  return lines.join('\n');
}
