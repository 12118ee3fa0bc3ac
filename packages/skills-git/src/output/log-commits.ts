/** One commit of a log: an entry of the git skill's `data.commits`. */
export interface GitCommit {
  hash: string;
  shortHash: string;
  parents: string[];
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  subject: string;
  body: string;
}

const FIELDS = ['%H', '%h', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%s', '%b'];

/** `git log` options that print commits in the form {@link parseLogCommits} reads. */
export const LOG_FORMAT_OPTIONS: readonly string[] = [`--format=${FIELDS.join('%x00')}`, '-z'];

/** Parses `git log` output printed with {@link LOG_FORMAT_OPTIONS}; an incomplete last commit is left out. */
export function parseLogCommits(text: string, truncated = false): GitCommit[] {
  const fields = text.split('\0');
  const commits: GitCommit[] = [];
  for (let start = 0; start + FIELDS.length <= fields.length; start += FIELDS.length) {
    const [
      hash = '',
      shortHash = '',
      parents = '',
      authorName = '',
      authorEmail = '',
      authorDate = '',
      committerName = '',
      committerEmail = '',
      committerDate = '',
      subject = '',
      body = '',
    ] = fields.slice(start, start + FIELDS.length);
    commits.push({
      hash,
      shortHash,
      parents: parents === '' ? [] : parents.split(' '),
      author: { name: authorName, email: authorEmail, date: authorDate },
      committer: { name: committerName, email: committerEmail, date: committerDate },
      subject,
      body: body.replace(/\n+$/, ''),
    });
  }
  if (truncated) commits.pop();
  return commits;
}

/** Renders commits the way `git log` prints them by default (the medium format, ISO dates). */
export function formatCommits(commits: readonly GitCommit[]): string {
  return commits
    .map((commit) => {
      const lines = [`commit ${commit.hash}`];
      if (commit.parents.length > 1) lines.push(`Merge: ${commit.parents.map((parent) => parent.slice(0, 7)).join(' ')}`);
      lines.push(`Author: ${commit.author.name} <${commit.author.email}>`, `Date:   ${commit.author.date}`, '', `    ${commit.subject}`);
      if (commit.body !== '') lines.push('', ...commit.body.split('\n').map((line) => (line === '' ? '' : `    ${line}`)));
      return lines.join('\n');
    })
    .join('\n\n');
}
