import { describe, expect, it } from 'vitest';
import { AgentRpcError, RPC_ERROR_CODES } from './agent-server.js';
import { NexusError, ToolResult } from './index.js';

describe('AgentRpcError', () => {
  it('keeps the JSON-RPC code, and a refusal (-32602) is invalid input for the model', () => {
    const refusal = new AgentRpcError('A sandboxed agent creates no agents.', { rpcCode: RPC_ERROR_CODES.invalidParams });
    expect(refusal.rpcCode).toBe(-32602);
    expect(refusal.kind).toBe('invalid_input');
    expect(AgentRpcError.isInstance(refusal) && NexusError.isInstance(refusal)).toBe(true);
    expect(ToolResult.fromError(refusal)).toMatchObject({
      success: false,
      kind: 'invalid_input',
      error: 'A sandboxed agent creates no agents.',
    });
  });

  it('is an execution failure for other codes unless a kind is given', () => {
    expect(new AgentRpcError('boom', { rpcCode: RPC_ERROR_CODES.internalError }).kind).toBe('execution_failed');
    expect(new AgentRpcError('gone', { rpcCode: RPC_ERROR_CODES.serverError, kind: 'not_found' }).kind).toBe('not_found');
  });
});
