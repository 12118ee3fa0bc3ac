import type { SkillFamily } from '@nexus/core';
import { nexusCancelSkill } from './skills/nexus-cancel.js';
import { nexusCreateSkill } from './skills/nexus-create.js';
import { nexusDestroySkill } from './skills/nexus-destroy.js';
import { nexusSendSkill } from './skills/nexus-send.js';
import { nexusShutdownSkill } from './skills/nexus-shutdown.js';
import { nexusStatusSkill } from './skills/nexus-status.js';

/**
 * The agents family: `nexus_create`, `nexus_send`, `nexus_status`, `nexus_cancel`,
 * `nexus_destroy` and `nexus_shutdown`, which command agents on an agent server — the one the
 * agent runs in (the `agentServer` service), or one reached over HTTP.
 */
export const agentSkills: SkillFamily = {
  name: 'agents',
  skills: [nexusCreateSkill, nexusSendSkill, nexusStatusSkill, nexusCancelSkill, nexusDestroySkill, nexusShutdownSkill],
};
