import { describe, expect, it } from 'vitest';
import * as mcp from './index.js';

describe('the @nexus/mcp surface', () => {
  it('exports the server factory, the two transports and the body cap, nothing internal', () => {
    expect(Object.keys(mcp).sort()).toEqual(['DEFAULT_MAX_BODY_BYTES', 'createMcpServer', 'serveHttp', 'serveStdio']);
  });
});
