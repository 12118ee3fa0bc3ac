import { describe, expect, it } from 'vitest';
import * as mcp from './index.js';

describe('the @nexus/mcp surface', () => {
  it('exports the server factory, the two transports, the body cap, the client log, the importer and its config parser, nothing internal', () => {
    expect(Object.keys(mcp).sort()).toEqual([
      'ClientLog',
      'DEFAULT_MAX_BODY_BYTES',
      'DEFAULT_MCP_MAX_TOTAL_SECONDS',
      'DEFAULT_MCP_TIMEOUT_SECONDS',
      'KEPT_CLIENT_LOG_MESSAGES',
      'MAX_IMPORTED_OUTPUT_BYTES',
      'McpServerUnavailableError',
      'createMcpServer',
      'importMcpServer',
      'mcpOAuthClient',
      'parseMcpServerConfig',
      'serveHttp',
      'serveStdio',
    ]);
  });
});
