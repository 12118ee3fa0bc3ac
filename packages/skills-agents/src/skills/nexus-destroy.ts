import { agentIdParameter, defineAgentSkill } from '../define-agent-skill.js';

/** Arguments of `nexus_destroy`. */
export interface NexusDestroyArguments {
  agent_id: string;
  port?: number;
}

/**
 * `nexus_destroy`: destroys an agent and its saved session (`destroy_agent`); the server keeps
 * running. The server allows it for the agent itself, its parent and the token holder.
 */
export const nexusDestroySkill = defineAgentSkill<NexusDestroyArguments>({
  name: 'nexus_destroy',
  title: 'Destroy agent',
  outputSchema: {
    type: 'object',
    properties: { success: { type: 'boolean' }, agent_id: { type: 'string' } },
    required: ['success', 'agent_id'],
  },
  description:
    'Destroy an agent on the Nexus agent server (one you created, or yourself), with its conversation; the server keeps running.',
  minimumLevel: 'trusted',
  destructive: true,
  parameters: { type: 'object', properties: { agent_id: agentIdParameter('Id of the agent to destroy.') }, required: ['agent_id'] },
  async run(args, { connection }) {
    return { result: await connection.call('destroy_agent', { agent_id: args.agent_id }) };
  },
});
