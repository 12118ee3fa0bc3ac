import { agentIdParameter, defineAgentSkill } from '../define-agent-skill.js';

/** Arguments of `nexus_cancel`. */
export interface NexusCancelArguments {
  agent_id: string;
  request_id: string | number;
  port?: number;
}

/**
 * `nexus_cancel`: cancels an agent's running or queued turn by its request id (`cancel`):
 * `{ cancelled: true, request_id }`, or `cancelled: false` with the reason.
 */
export const nexusCancelSkill = defineAgentSkill<NexusCancelArguments>({
  name: 'nexus_cancel',
  title: 'Cancel agent turn',
  outputSchema: {
    type: 'object',
    properties: {
      cancelled: { type: 'boolean' },
      request_id: { type: ['string', 'integer'] },
      reason: { type: 'string', description: 'Why nothing was cancelled, e.g. not_found_or_completed.' },
    },
    required: ['cancelled', 'request_id'],
  },
  description:
    "Cancel an agent's running or queued turn on the Nexus agent server, by the request_id its send returned (or create's initial_request_id).",
  minimumLevel: 'trusted',
  parameters: {
    type: 'object',
    properties: {
      agent_id: agentIdParameter('Id of the agent.'),
      request_id: { type: ['string', 'integer'], pattern: '\\S', description: 'The request id to cancel, a string or an integer.' },
    },
    required: ['agent_id', 'request_id'],
  },
  async run(args, { connection }) {
    return { result: await connection.call('cancel', { request_id: args.request_id }, args.agent_id) };
  },
});
