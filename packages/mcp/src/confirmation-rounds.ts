import { createHash } from 'node:crypto';
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type ConfirmationRequest, type ConfirmFunction, ToolResult } from '@nexus/core';

/**
 * What a confirmation's `requestState` carries. The client holds it between the question and the
 * retry, so it is signed (HMAC-SHA256 with the server's state key, with an expiry) and checked
 * against the retried call before anything runs.
 */
interface ConfirmationState {
  /** Digest of the call it belongs to: tool, arguments and the permission policy in force. */
  call: string;
  /** Requests the user approved in earlier rounds of this call. */
  approved: ConfirmationRequest[];
  /** The request this round asks about. */
  asking: ConfirmationRequest;
}

/** The call being confirmed: what was asked for, and the policy digest it is decided under. */
export interface ConfirmableCall {
  tool: string;
  args: Record<string, unknown>;
  policyDigest: string;
}

/** The key of the one input request a confirmation round carries. */
const CONFIRM_KEY = 'confirm';

const approveForm = (tool: string) => ({
  type: 'object' as const,
  properties: { approve: { type: 'boolean' as const, title: 'Approve', description: `Tick to let ${tool} go ahead.`, default: false } },
  required: ['approve'],
});

function describe({ tool, action, detail }: ConfirmationRequest): string {
  return `Allow ${tool} to ${action}?${detail ? `\n\n${detail}` : ''}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** Digest of a permission policy: a confirmation given under one policy is no use under another. */
export function policyDigest(permissions: unknown): string {
  return sha256(JSON.stringify(permissions ?? null));
}

/** Requests compare as they travel: through JSON, where an `undefined` member is absent. */
function sameRequest(a: ConfirmationRequest, b: ConfirmationRequest): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Confirmations asked in-band: a call that needs one answers `input_required` with the question
 * (an elicitation form with one `approve` checkbox) and a signed `requestState`; the client's retry
 * with the answer runs the call again, approving what the user approved. On a 2026-07-28
 * connection the client drives the rounds; on a 2025-era connection the SDK's legacy shim sends
 * the same question as `elicitation/create` and re-enters the handler, so both eras share one path.
 */
export class ConfirmationRounds {
  readonly #codec: RequestStateCodec<ConfirmationState>;

  constructor(key: string | Uint8Array, ttlSeconds: number) {
    this.#codec = createRequestStateCodec<ConfirmationState>({ key, ttlSeconds });
  }

  /** The `requestState.verify` hook of the server: refuses a state with a bad signature or past its expiry. */
  readonly verify = (state: string, ctx: ServerContext): Promise<ConfirmationState> => this.#codec.verify(state, ctx);

  /**
   * Whether the client of this request can be asked: it declared (form) elicitation — per request
   * on 2026-07-28, at `initialize` on 2025-era connections.
   */
  static canAsk(server: Server, ctx: ServerContext): boolean {
    const capabilities = (ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] ?? server.getClientCapabilities()) as
      | { elicitation?: { form?: object; url?: object } }
      | undefined;
    const elicitation = capabilities?.elicitation;
    return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  }

  /**
   * Runs one round of `call`: `execute` with a `confirm` that approves what the user approved in
   * earlier rounds and turns the first other request into this round's question. Returns the
   * call's result, or the `input_required` answer when a question is pending.
   */
  async run(
    call: ConfirmableCall,
    ctx: ServerContext,
    execute: (confirm: ConfirmFunction) => Promise<ToolResult>,
  ): Promise<ToolResult | InputRequiredResult> {
    const digest = sha256(JSON.stringify([call.tool, call.args, call.policyDigest]));
    const state = ctx.mcpReq.requestState<ConfirmationState>();
    const approved: ConfirmationRequest[] = [];
    if (state !== undefined) {
      if (state.call !== digest) {
        return ToolResult.fail(
          `This confirmation was not given for this call (another tool, other arguments or another policy); call ${call.tool} again to be asked.`,
          'forbidden',
        );
      }
      const answer = acceptedContent(ctx.mcpReq.inputResponses, CONFIRM_KEY);
      if (answer?.approve !== true) {
        return ToolResult.fail(`Running ${call.tool} needs confirmation (${state.asking.action}), and it was not given.`, 'forbidden');
      }
      approved.push(...state.approved, state.asking);
    }
    let asking: ConfirmationRequest | undefined;
    const confirm: ConfirmFunction = (request) => {
      if (approved.some((earlier) => sameRequest(earlier, request))) return true;
      asking ??= request;
      return false;
    };
    const result = await execute(confirm);
    if (asking === undefined) return result;
    return inputRequired({
      inputRequests: {
        [CONFIRM_KEY]: inputRequired.elicit({ mode: 'form', message: describe(asking), requestedSchema: approveForm(asking.tool) }),
      },
      requestState: await this.#codec.mint({ call: digest, approved, asking }),
    });
  }
}
