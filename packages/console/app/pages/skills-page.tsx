import { useCallback, useEffect, useState } from 'preact/hooks';
import { ErrorLine } from '../action.js';
import type { Rpc } from '../rpc.js';

interface SkillPackage {
  name: string;
  description: string;
  folder: string;
  scope: 'user' | 'project';
  trust: 'user' | 'trusted' | 'untrusted' | 'changed';
  state: 'loaded' | 'ghost' | 'unlisted';
  tools: string[];
  pinned: boolean;
}

interface SkillDiagnostic {
  severity: 'error' | 'warning' | 'note';
  file: string;
  line: number;
  column: number;
  message: string;
}

interface SkillPackages {
  enabled: boolean;
  packages: SkillPackage[];
  diagnostics: SkillDiagnostic[];
}

const TRUST: Record<SkillPackage['trust'], string> = {
  user: 'yours (user package)',
  trusted: 'trusted',
  untrusted: 'untrusted',
  changed: 'changed since trusted',
};

const STATE: Record<SkillPackage['state'], string> = {
  loaded: 'loaded',
  ghost: 'ghost (loads on first use)',
  unlisted: 'not offered',
};

/** A trust cell: a project package that is not trusted says how to trust it, in a terminal. */
function TrustCell({ entry }: { entry: SkillPackage }) {
  const untrusted = entry.trust === 'untrusted' || entry.trust === 'changed';
  return (
    <td class={untrusted ? 'untrusted' : undefined}>
      {TRUST[entry.trust]}
      {untrusted && (
        <>
          {' — '}
          <code>nexus skills trust {entry.name}</code>
        </>
      )}
    </td>
  );
}

/** SKILL.md packages the agents are offered: trust, how each is offered (loaded, ghost), and diagnostics at file:line:col. */
export function SkillsPage({ rpc }: { rpc: Rpc }) {
  const [report, setReport] = useState<SkillPackages | undefined>();
  const [error, setError] = useState('');
  const load = useCallback(() => {
    rpc.call<SkillPackages>('list_skill_packages').then(
      (answer) => {
        setReport(answer);
        setError('');
      },
      (failure: Error) => setError(failure.message),
    );
  }, [rpc]);
  useEffect(load, [load]);
  return (
    <section aria-labelledby="skills-heading">
      <h1 id="skills-heading">Skills</h1>
      <p class="hint">
        SKILL.md packages the agents are offered. A project package runs its commands only once you trust it, in a terminal, after reading
        its files; any change untrusts it.
      </p>
      <button type="button" onClick={load}>
        Check again
      </button>
      <ErrorLine error={error} />
      {report === undefined ? (
        <p class="loading">Loading skill packages…</p>
      ) : !report.enabled ? (
        <p>
          This server serves no skill packages: start it with the skills family (<code>nexus serve --families fs,skills</code>).
        </p>
      ) : (
        <>
          <table class="skill-table" aria-label="Skill packages">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Trust</th>
                <th scope="col">Offered</th>
                <th scope="col">Tools</th>
                <th scope="col">Folder</th>
              </tr>
            </thead>
            <tbody>
              {report.packages.map((entry) => (
                <tr key={entry.folder}>
                  <td title={entry.description}>{entry.name}</td>
                  <td>{entry.scope}</td>
                  <TrustCell entry={entry} />
                  <td>{`${STATE[entry.state]}${entry.pinned ? ', pinned' : ''}`}</td>
                  <td>{entry.tools.join(', ') || '—'}</td>
                  <td>
                    <code>{entry.folder}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Diagnostics</h2>
          {report.diagnostics.length === 0 ? (
            <p>None.</p>
          ) : (
            <ul class="diagnostics" aria-label="Diagnostics">
              {report.diagnostics.map((diagnostic) => (
                <li key={`${diagnostic.file}:${diagnostic.line}:${diagnostic.column}:${diagnostic.message}`}>
                  <code>{`${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`}</code>
                  <span class={`severity ${diagnostic.severity}`}>{diagnostic.severity}</span>
                  {diagnostic.message}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
