import { useEffect, useState } from 'preact/hooks';
import { ErrorLine, useAction } from '../action.js';
import { BarChart } from '../bar-chart.js';
import type { Rpc } from '../rpc.js';
import type { AgentInfo, LiveCall, LiveTurn } from '../types.js';

/** Shown of a tool result until "show all". */
const OUTPUT_PREVIEW = 300;
const HISTORY_PAGE = 50;
const SUMMARY_PREFIX = 'Summary of the earlier conversation';

/** One agent: what it is, a live view of its turns (send, cancel), and its history. */
export function AgentPage({
  rpc,
  agentId,
  agent,
  turns,
}: {
  rpc: Rpc;
  agentId: string;
  agent: AgentInfo | undefined;
  turns: readonly LiveTurn[];
}) {
  const [content, setContent] = useState('');
  const running = turns.findLast((turn) => turn.status !== 'ended');
  const send = useAction(async () => {
    const text = content;
    setContent('');
    // The turn's progress arrives through watch; the answer itself is not needed here.
    await rpc.call('send', { content: text }, agentId);
  });
  const cancel = useAction(async (requestId: string) => {
    await rpc.call('cancel', { request_id: requestId }, agentId);
  });
  const [compacted, setCompacted] = useState({ count: 0, note: '' });
  const compact = useAction(async () => {
    const answer = await rpc.call<{ compacted: boolean; reason?: string; tokens_before?: number; tokens_after?: number }>(
      'compact',
      {},
      agentId,
    );
    setCompacted((last) => ({
      count: last.count + 1,
      note: answer.compacted ? `Compacted: ${answer.tokens_before} → ${answer.tokens_after} tokens.` : `Not compacted: ${answer.reason}.`,
    }));
  });
  return (
    <section aria-labelledby="agent-heading">
      <h1 id="agent-heading">Agent {agentId}</h1>
      {agent && (
        <dl class="facts">
          <dt>Level</dt>
          <dd>{agent.permission_level}</dd>
          <dt>Model</dt>
          <dd>{agent.model}</dd>
          <dt>Working directory</dt>
          <dd>{agent.cwd}</dd>
          <dt>Writes</dt>
          <dd>{agent.write_paths.join(', ') || 'nowhere'}</dd>
          <dt>State</dt>
          <dd>{agent.state.replace('_', ' ')}</dd>
        </dl>
      )}
      <form
        class="send"
        onSubmit={(event) => {
          event.preventDefault();
          if (content.trim()) send.run();
        }}
      >
        <label for="message">Message</label>
        <textarea id="message" rows={3} value={content} onInput={(event) => setContent(event.currentTarget.value)} />
        <div class="buttons">
          <button type="submit">Send</button>
          {running && (
            <button type="button" class="danger" onClick={() => cancel.run(running.requestId)}>
              Cancel turn
            </button>
          )}
          <button type="button" onClick={() => compact.run()}>
            Compact
          </button>
        </div>
        <ErrorLine error={send.error || cancel.error || compact.error} />
        {compacted.note && (
          <p class="meta" role="status">
            {compacted.note}
          </p>
        )}
      </form>
      <h2>Live</h2>
      {turns.length === 0 ? (
        <p>No turn since this page opened.</p>
      ) : (
        [...turns].reverse().map((turn) => <Turn key={turn.requestId} turn={turn} />)
      )}
      {turns.some((turn) => turn.usage) && (
        <BarChart
          title="Tokens per turn"
          bars={turns
            .filter((turn) => turn.usage)
            .map((turn) => ({ label: turn.requestId, input: turn.usage?.inputTokens ?? 0, output: turn.usage?.outputTokens ?? 0 }))}
        />
      )}
      <History rpc={rpc} agentId={agentId} version={turns.filter((turn) => turn.status === 'ended').length + compacted.count} />
    </section>
  );
}

function Turn({ turn }: { turn: LiveTurn }) {
  // A turn that ended unseen streamed only part of its text, if any: its reply has all of it.
  const unseenAnswer = turn.endedUnseen ? turn.reply?.content : undefined;
  const answer = typeof unseenAnswer === 'string' ? unseenAnswer : turn.text;
  return (
    <article class={`turn ${turn.status}`} data-request={turn.requestId} aria-label={`Turn ${turn.requestId}`}>
      <p class="asked">
        <strong>You:</strong> {turn.content}
      </p>
      <ol class="calls">
        {turn.calls.map((call) => (
          <ToolCall key={call.id} call={call} />
        ))}
      </ol>
      {answer && <p class="answer">{answer}</p>}
      <p class="turn-status" aria-live="polite">
        {turn.status === 'awaiting_approval' ? (
          <>
            Waiting for approval — <a href="#/approvals">answer it</a>
          </>
        ) : (
          standing(turn)
        )}
      </p>
    </article>
  );
}

/** Where a turn not waiting for approval stands: running, or how it ended, and whether the page saw it end. */
function standing(turn: LiveTurn): string {
  if (turn.status === 'running') return 'Running…';
  const unseen = turn.endedUnseen ? ' while the page was not connected (see the history)' : '';
  if (turn.reply?.cancelled) return `Cancelled${unseen}`;
  return unseen ? `Ended${unseen}` : 'Done';
}

/**
 * The decision behind a call: allowed, asked (then approved or denied) or refused, and by what (the
 * preset, a rule, a hook) as the server reported it; before its result, what the stream told so far.
 */
function decisionOf(call: LiveCall): string {
  const { result, decision } = call;
  if (decision) {
    if (decision.decision === 'allow') return `allowed by ${decision.decidedBy}`;
    if (decision.decision === 'ask') return `asked by ${decision.decidedBy} → ${decision.confirmed ? 'approved' : 'denied'}`;
    return `refused by ${decision.decidedBy}${decision.reason ? `: ${decision.reason}` : ''}`;
  }
  if (call.asked) return result ? (result.kind === 'forbidden' ? 'asked → denied' : 'asked → approved') : 'asked';
  if (!result) return '';
  return result.kind === 'forbidden' ? 'refused' : 'allowed';
}

function ToolCall({ call }: { call: LiveCall }) {
  const [all, setAll] = useState(false);
  const output = call.result?.output ?? '';
  return (
    <li class={`call ${call.result ? (call.result.success ? 'ok' : 'failed') : 'pending'}`} data-call={call.name}>
      <div class="call-head">
        <code class="tool">{call.name}</code>
        <span class="decision">{decisionOf(call)}</span>
        {call.result && <span class="duration">{Math.round(call.result.durationMs)} ms</span>}
      </div>
      <pre class="arguments">{JSON.stringify(call.arguments, null, 2)}</pre>
      {call.result && (
        <>
          <pre class="output">{all ? output : output.slice(0, OUTPUT_PREVIEW)}</pre>
          {output.length > OUTPUT_PREVIEW && (
            <button type="button" class="link" onClick={() => setAll(!all)} aria-expanded={all}>
              {all ? 'Show less' : 'Show all'}
            </button>
          )}
        </>
      )}
    </li>
  );
}

interface HistoryPage {
  total: number;
  offset: number;
  messages: Array<{ index: number; role: string; content: string; meta?: { tool_calls?: Array<{ name: string }> } }>;
}

/** The agent's messages, newest page first, with compactions marked; reloaded when a turn ends. */
function History({ rpc, agentId, version }: { rpc: Rpc; agentId: string; version: number }) {
  const [page, setPage] = useState<HistoryPage | undefined>();
  const [offset, setOffset] = useState<number | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    const load = async () => {
      const first = await rpc.call<HistoryPage>('get_messages', { offset: 0, limit: 1 }, agentId);
      const start = offset ?? Math.max(0, first.total - HISTORY_PAGE);
      setPage(await rpc.call<HistoryPage>('get_messages', { offset: start, limit: HISTORY_PAGE }, agentId));
    };
    load().then(
      () => setError(''),
      (failure: Error) => setError(failure.message),
    );
  }, [rpc, agentId, offset, version]);
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      <ErrorLine error={error} />
      {page && (
        <>
          <p class="meta">
            Messages {page.total === 0 ? 0 : page.offset + 1}–{page.offset + page.messages.length} of {page.total}
          </p>
          <div class="buttons">
            <button type="button" disabled={page.offset === 0} onClick={() => setOffset(Math.max(0, page.offset - HISTORY_PAGE))}>
              Older
            </button>
            <button
              type="button"
              disabled={page.offset + page.messages.length >= page.total}
              onClick={() => setOffset(page.offset + HISTORY_PAGE)}
            >
              Newer
            </button>
          </div>
          <ol class="history" start={page.offset + 1}>
            {page.messages.map((message) => (
              <li key={message.index} class={`message ${message.role}${message.content.startsWith(SUMMARY_PREFIX) ? ' compaction' : ''}`}>
                <span class="role">{message.content.startsWith(SUMMARY_PREFIX) ? 'compacted' : message.role}</span>
                {message.meta?.tool_calls && <span class="meta"> calls {message.meta.tool_calls.map((call) => call.name).join(', ')}</span>}
                {message.content && <pre>{message.content}</pre>}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
