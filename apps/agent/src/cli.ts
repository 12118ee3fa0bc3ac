import { ServiceContainer, resolvePreset } from '@nexus/core';
import { SkillRegistry, utilitySkills } from '@nexus/registry';

// Placeholder until the MCP/CLI issue: lists the tools of the utility family.
const services = new ServiceContainer().register('permissions', resolvePreset('sandboxed', { cwd: process.cwd() }));
const registry = new SkillRegistry(services).use(utilitySkills);
console.log(`nexus — tools: ${registry.names.join(', ')}`);
