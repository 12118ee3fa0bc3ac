import type { ToolErrorKind } from '@nexus/core';
import { AgentRpcError } from '@nexus/core/agent-server';

/** Marks a Restate terminal error's message as a JSON-RPC refusal carried through the ingress. */
export const REFUSAL_MARK = 'nexus-rpc-error:';

/** A refusal as a Restate terminal error's message: what the front end needs to answer it as the local runtime would. */
export function encodeRefusal(error: AgentRpcError): string {
  return `${REFUSAL_MARK}${JSON.stringify({ message: error.message, rpcCode: error.rpcCode, kind: error.kind })}`;
}

/** The refusal a Restate error message carries, or `undefined` when it carries none. */
export function decodeRefusal(message: string): AgentRpcError | undefined {
  const at = message.indexOf(REFUSAL_MARK);
  if (at < 0) return undefined;
  const {
    message: text,
    rpcCode,
    kind,
  } = JSON.parse(message.slice(at + REFUSAL_MARK.length)) as {
    message: string;
    rpcCode: number;
    kind: ToolErrorKind;
  };
  return new AgentRpcError(text, { rpcCode, kind });
}
