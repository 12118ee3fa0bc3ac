import { agentIdParameter, defineAgentSkill } from '../define-agent-skill.js';

/** Arguments of `nexus_status`. */
export interface NexusStatusArguments {
  agent_id: string;
  port?: number;
}

/** `nexus_status`: an agent's token use and context, `{ tokens: get_tokens, context: get_context }`. */
export const nexusStatusSkill = defineAgentSkill<NexusStatusArguments>({
  name: 'nexus_status',
  title: 'Agent status',
  idempotent: true,
  outputSchema: {
    type: 'object',
    properties: {
      tokens: {
        type: 'object',
        properties: Object.fromEntries(
          ['system', 'tools', 'messages', 'total', 'budget', 'available', 'remaining'].map((key) => [key, { type: 'number' }]),
        ),
        required: ['total', 'budget'],
      },
      context: {
        type: 'object',
        properties: {
          message_count: { type: 'integer' },
          system_prompt: { type: 'string' },
          halted_at_iteration_limit: { type: 'boolean' },
          last_iteration_count: { type: 'integer' },
          max_tool_iterations: { type: 'integer' },
        },
        required: ['message_count'],
      },
    },
    required: ['tokens', 'context'],
  },
  description:
    "Read an agent's status on the Nexus agent server: { tokens: { system, tools, messages, total, budget, available, remaining }, " +
    'context: { message_count, system_prompt, halted_at_iteration_limit, last_iteration_count, max_tool_iterations } }.',
  minimumLevel: 'trusted',
  readOnly: true,
  parameters: { type: 'object', properties: { agent_id: agentIdParameter('Id of the agent.') }, required: ['agent_id'] },
  async run(args, { connection }) {
    const [tokens, context] = await Promise.all([
      connection.call('get_tokens', {}, args.agent_id),
      connection.call('get_context', {}, args.agent_id),
    ]);
    return { result: { tokens, context } };
  },
});
