import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as core from './index.js';

const sourceDir = fileURLToPath(new URL('.', import.meta.url));

describe('the @nexus/core barrel', () => {
  it('exports exactly the protocol, sandbox and helpers it documents (no unverified writes)', () => {
    expect(Object.keys(core).sort()).toEqual([
      'AGENT_SERVER_KEY_VARIABLE',
      'AgentRpcError',
      'CancelledError',
      'ConfigError',
      'DEFAULT_AGENT_SERVER_PORT',
      'InvalidOptionError',
      'InvalidParametersError',
      'MIN_AGENT_SERVER_KEY_LENGTH',
      'NexusError',
      'NotFoundError',
      'PERMISSION_LEVELS',
      'PathSecurityError',
      'PermissionDeniedError',
      'RPC_ERROR_CODES',
      'ServiceContainer',
      'SkillExecutionError',
      'SkillNotFoundError',
      'TOOL_ERROR_KINDS',
      'TimeoutError',
      'ToolResult',
      'agentServerTokenPath',
      'assertWithinCeiling',
      'atomicWriteVerified',
      'authorizePath',
      'confirmOncePerCall',
      'convertLineEndings',
      'defineSkill',
      'describeValue',
      'detectLineEnding',
      'expectOption',
      'findCeilingViolations',
      'findToolRefusal',
      'formatSchemaIssues',
      'getSafeEnv',
      'hasBearerToken',
      'isLoopbackHost',
      'isPermissionLevel',
      'isPositiveNumber',
      'isPrivateProcessEntry',
      'isSecretName',
      'isToolEnabled',
      'isValidAgentId',
      'isValidToolName',
      'isWithin',
      'levelAtLeast',
      'nexusStateDir',
      'normalizePath',
      'openVerified',
      'openVerifiedDirectory',
      'openVerifiedSync',
      'readBody',
      'refusePlantedSymlink',
      'resolvePreset',
      'resolveRealPath',
      'resolveToolAllowedPaths',
      'tokenDigest',
      'validateAgentId',
      'validatePath',
      'validateToolName',
      'withFileLocks',
      'withVerifiedDirectory',
    ]);
  });

  it('has no heavy or process-spawning dependency: no module imports child_process or a package', () => {
    for (const file of readdirSync(sourceDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const source = readFileSync(`${sourceDir}/${file}`, 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1] as string);
      for (const specifier of imports) {
        expect(
          specifier.startsWith('./') || (specifier.startsWith('node:') && specifier !== 'node:child_process'),
          `${file} imports ${specifier}`,
        ).toBe(true);
      }
    }
  });
});
