import { describe, expect, it } from 'vitest';
import * as agents from './index.js';

describe('the @nexus/agents surface', () => {
  it('exports the agent, its settings and model resolution, the provider error, nothing internal', () => {
    expect(Object.keys(agents).sort()).toEqual([
      'Agent',
      'DEFAULT_COMPACT_AT',
      'DEFAULT_CONTEXT_WINDOW',
      'DEFAULT_MAX_TOOL_ITERATIONS',
      'PROVIDER_TYPES',
      'ProviderError',
      'agentSettingsSchema',
      'parseAgentSettings',
      'resolveModel',
      'summarizeModels',
    ]);
  });
});
