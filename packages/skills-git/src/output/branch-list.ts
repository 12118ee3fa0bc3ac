/** One branch of a branch listing: an entry of the git skill's `data.branches`. */
export interface GitBranch {
  /** Short name (`main`, `origin/main`), or `(HEAD detached at …)`. */
  name: string;
  /** Full ref name; `null` for a detached HEAD. */
  ref: string | null;
  current: boolean;
  commit: string;
  upstream: string | null;
  /** `ahead 1, behind 2`, `gone`, or `null` when in sync or without upstream. */
  track: string | null;
  subject: string;
}

const FIELDS = [
  '%(HEAD)',
  '%(refname)',
  '%(refname:short)',
  '%(objectname)',
  '%(upstream:short)',
  '%(upstream:track,nobracket)',
  '%(contents:subject)',
];

/** The `git branch` option that prints branches in the form {@link parseBranchList} reads. */
export const BRANCH_FORMAT_OPTION = `--format=${FIELDS.join('%00')}`;

/** Parses `git branch` output printed with {@link BRANCH_FORMAT_OPTION}. */
export function parseBranchList(text: string): GitBranch[] {
  return text
    .split('\n')
    .map((line) => line.split('\0'))
    .filter((fields) => fields.length === FIELDS.length)
    .map(([head = '', ref = '', name = '', commit = '', upstream = '', track = '', subject = '']) => ({
      name,
      ref: ref.startsWith('refs/') ? ref : null,
      current: head === '*',
      commit,
      upstream: upstream || null,
      track: track || null,
      subject,
    }));
}

/** Renders branches the way `git branch` lists them. */
export function formatBranches(branches: readonly GitBranch[]): string {
  return branches.map((branch) => `${branch.current ? '*' : ' '} ${branch.name}`).join('\n');
}
