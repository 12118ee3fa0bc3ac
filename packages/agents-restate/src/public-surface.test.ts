import { describe, expect, it } from 'vitest';
import * as restate from './index.js';
import * as testing from './testing.js';

describe('the @nexus/agents-restate surface', () => {
  it('exports the runtime, its starter and the virtual object, nothing internal', () => {
    expect(Object.keys(restate).sort()).toEqual(['AGENT_OBJECT', 'RestateRuntime', 'startRestateRuntime']);
  });

  it('exports the test server and a free port under ./testing', () => {
    expect(Object.keys(testing).sort()).toEqual(['freePort', 'startRestateServer']);
  });
});
