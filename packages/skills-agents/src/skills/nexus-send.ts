import { InvalidParametersError } from '@nexus/core';
import { agentIdParameter, defineAgentSkill } from '../define-agent-skill.js';
import { SEND_RESULT_SCHEMA } from '../send-result-schema.js';

/** Arguments of `nexus_send`. */
export interface NexusSendArguments {
  agent_id: string;
  content: string;
  port?: number;
}

function haltedAtIterationLimit(result: unknown): boolean {
  return (
    typeof result === 'object' && result !== null && (result as { halted_at_iteration_limit?: unknown }).halted_at_iteration_limit === true
  );
}

/**
 * `nexus_send`: sends a message to an agent (`send`) and answers with its reply,
 * `{ content, request_id, halted_at_iteration_limit }`. Turns of one agent run one at a time.
 * Offered at `sandboxed`, where the server lets an agent send to its parent only.
 */
export const nexusSendSkill = defineAgentSkill<NexusSendArguments>({
  name: 'nexus_send',
  title: 'Send to agent',
  outputSchema: SEND_RESULT_SCHEMA,
  description:
    'Send a message to another agent on the Nexus agent server and wait for its answer: { content, request_id, halted_at_iteration_limit }. ' +
    'The agent works on it with its own tools; its turns run one at a time. A sandboxed agent may send to its parent only.',
  parameters: {
    type: 'object',
    properties: {
      agent_id: agentIdParameter('Id of the agent to send to.'),
      content: { type: 'string', minLength: 1, description: 'The message.' },
    },
    required: ['agent_id', 'content'],
  },
  async run(args, { connection, inProcess }, { services, context }) {
    if (args.content.trim() === '')
      throw new InvalidParametersError('`content` is blank: send the agent something to do.', { parameter: 'content' });
    if (inProcess && args.agent_id === services.get('agentId')) {
      throw new InvalidParametersError(`Agent "${args.agent_id}" cannot send to itself: the turn would wait for its own answer.`, {
        parameter: 'agent_id',
      });
    }
    // Cancelling this call (the caller's turn, or its time limit) cancels the other agent's turn too.
    const result = await connection.call('send', { content: args.content }, args.agent_id, { signal: context.signal });
    if (!haltedAtIterationLimit(result)) return { result };
    return {
      result,
      warning: `Warning: agent "${args.agent_id}" stopped at its tool-iteration limit, so the answer may be unfinished; send it another message to let it continue.`,
    };
  },
});
