/**
 * Building blocks for writing further agent-control skills (`@nexus/skills-agents/kit`): a skill
 * made with {@link defineAgentSkill} gets what the built-in `nexus_*` skills get — the `port`
 * parameter, the `agent_id` check, the choice of agent server and the result as JSON text and `data`.
 */

export { AGENT_ID_PATTERN } from '@nexus/core';
export type { AgentServerRoute, AgentSkillAnswer, AgentSkillDefinition } from './define-agent-skill.js';
export { agentIdParameter, defineAgentSkill } from './define-agent-skill.js';
