import { defineAgentSkill } from '../define-agent-skill.js';

/** Arguments of `nexus_shutdown`. */
export interface NexusShutdownArguments {
  port?: number;
}

/** `nexus_shutdown`: stops the agent server and every agent in it (`shutdown_server`). */
export const nexusShutdownSkill = defineAgentSkill<NexusShutdownArguments>({
  name: 'nexus_shutdown',
  title: 'Shut down agent server',
  outputSchema: {
    type: 'object',
    properties: { success: { type: 'boolean' }, message: { type: 'string' } },
    required: ['success', 'message'],
  },
  description: 'Shut the Nexus agent server down: it answers, then stops every agent (this one too, when it runs there) and exits.',
  minimumLevel: 'trusted',
  destructive: true,
  parameters: { type: 'object', properties: {}, required: [] },
  async run(_args, { connection }) {
    return { result: await connection.call('shutdown_server', {}) };
  },
});
