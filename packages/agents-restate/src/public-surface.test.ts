import { readFileSync } from 'node:fs';
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

  it("./testing's free ports are below the kernel's ephemeral range, where another server's listen(0) cannot take them first", async () => {
    const ephemeralStart = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const ports = await Promise.all(Array.from({ length: 5 }, () => testing.freePort()));
    expect(new Set(ports).size).toBe(5);
    for (const port of ports) expect(port).toBeLessThan(ephemeralStart);
  });
});
