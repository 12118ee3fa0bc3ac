import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as agentServer from './agent-server.js';
import * as http from './http.js';
import * as core from './index.js';

const sourceDir = fileURLToPath(new URL('.', import.meta.url));

describe('the @nexus/core barrel', () => {
  it('exports exactly the protocol, sandbox and helpers it documents (no unverified writes)', () => {
    expect(Object.keys(core).sort()).toEqual([
      'AGENT_ID_PATTERN',
      'CancelledError',
      'ConfigError',
      'InvalidOptionError',
      'InvalidParametersError',
      'NexusError',
      'NotFoundError',
      'PERMISSION_LEVELS',
      'PathSecurityError',
      'PermissionDeniedError',
      'RULE_DECISIONS',
      'ServiceContainer',
      'SkillExecutionError',
      'SkillNotFoundError',
      'TOOL_ERROR_KINDS',
      'TimeoutError',
      'ToolResult',
      'assertWithinCeiling',
      'atomicWriteVerified',
      'authorizePath',
      'canonicalJson',
      'confirmOncePerCall',
      'confirmationCovers',
      'convertLineEndings',
      'defineSkill',
      'describeValue',
      'detectLineEnding',
      'expectOption',
      'findCeilingViolations',
      'findToolRefusal',
      'formatSchemaIssues',
      'getSafeEnv',
      'isPathParameter',
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
      'policyDigest',
      'redactSecrets',
      'refusePlantedSymlink',
      'resolvePreset',
      'resolveRealPath',
      'resolveToolAllowedPaths',
      'validateAgentId',
      'validatePath',
      'validateToolName',
      'withFileLocks',
      'withVerifiedDirectory',
    ]);
  });

  it("keeps the agent server's wire protocol behind @nexus/core/agent-server", () => {
    expect(Object.keys(agentServer).sort()).toEqual([
      'AGENT_SERVER_KEY_VARIABLE',
      'AgentRpcError',
      'DEFAULT_AGENT_SERVER_PORT',
      'MIN_AGENT_SERVER_KEY_LENGTH',
      'RPC_ERROR_CODES',
      'agentServerTokenPath',
    ]);
  });

  it('keeps the HTTP helpers of the servers and their clients behind @nexus/core/http', () => {
    expect(Object.keys(http).sort()).toEqual(['hasBearerToken', 'isLoopbackHost', 'readBody', 'tokenDigest']);
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
