import type { SkillFamily } from '@nexus/core';
import { nexusCancelSkill } from './nexus-cancel-skill.js';
import { nexusCreateSkill } from './nexus-create-skill.js';
import { nexusDestroySkill } from './nexus-destroy-skill.js';
import { nexusSendSkill } from './nexus-send-skill.js';
import { nexusShutdownSkill } from './nexus-shutdown-skill.js';
import { nexusStatusSkill } from './nexus-status-skill.js';

/**
 * The agents family: `nexus_create`, `nexus_send`, `nexus_status`, `nexus_cancel`,
 * `nexus_destroy` and `nexus_shutdown`, which command agents on an agent server — the one the
 * agent runs in (the `agentServer` service), or one reached over HTTP.
 */
export const agentSkills: SkillFamily = {
  name: 'agents',
  skills: [nexusCreateSkill, nexusSendSkill, nexusStatusSkill, nexusCancelSkill, nexusDestroySkill, nexusShutdownSkill],
};
