import { useState } from 'preact/hooks';
import { ErrorLine, useAction } from '../action.js';
import type { Rpc } from '../rpc.js';
import type { Approval } from '../types.js';

function age(createdAt: string): string {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(createdAt)) / 1000));
  return seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/** Every pending approval across agents: the exact call and question; approve or deny, with a note and "remember". */
export function ApprovalsPage({ rpc, approvals, onResolved }: { rpc: Rpc; approvals: Approval[]; onResolved: () => void }) {
  return (
    <section aria-labelledby="approvals-heading">
      <h1 id="approvals-heading">Approvals</h1>
      {approvals.length === 0 ? (
        <p>Nothing waits for you.</p>
      ) : (
        <ul class="approvals">
          {approvals.map((approval) => (
            <ApprovalCard key={approval.approval_id} rpc={rpc} approval={approval} onResolved={onResolved} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ApprovalCard({ rpc, approval, onResolved }: { rpc: Rpc; approval: Approval; onResolved: () => void }) {
  const [note, setNote] = useState('');
  const [remember, setRemember] = useState(false);
  const resolve = useAction(async (decision: 'approve' | 'deny') => {
    await rpc.call(
      'resolve_approval',
      { approval_id: approval.approval_id, decision, ...(remember ? { remember } : {}), ...(note.trim() ? { note: note.trim() } : {}) },
      approval.agent_id,
    );
    onResolved();
  });
  const id = `approval-${approval.approval_id}`;
  return (
    <li class="approval" aria-labelledby={`${id}-title`} data-approval={approval.approval_id}>
      <h2 id={`${id}-title`}>
        <a href={`#/agent/${encodeURIComponent(approval.agent_id)}`}>{approval.agent_id}</a> wants to run <code>{approval.tool}</code>
      </h2>
      <p class="question">{approval.question}</p>
      <pre class="arguments">{JSON.stringify(approval.arguments, null, 2)}</pre>
      <p class="meta">
        turn {approval.request_id} · waiting {age(approval.created_at)}
      </p>
      <label>
        Note <input value={note} onInput={(event) => setNote(event.currentTarget.value)} />
      </label>
      <label class="check">
        <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} /> Remember for this agent
      </label>
      <div class="buttons">
        <button type="button" onClick={() => resolve.run('approve')}>
          Approve
        </button>
        <button type="button" class="danger" onClick={() => resolve.run('deny')}>
          Deny
        </button>
      </div>
      <ErrorLine error={resolve.error} />
    </li>
  );
}
