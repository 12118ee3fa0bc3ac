import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from './index.js';

const ephemeralStart = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('freePort', () => {
  it('hands out free ports below the ephemeral range, never the same one twice', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) expect(port).toBeLessThan(ephemeralStart);
    const server = createServer().listen(ports[0], '127.0.0.1');
    await once(server, 'listening');
    await new Promise((resolve) => server.close(resolve));
  });

  it('never hands out 10080, a port fetch() and browsers refuse to connect to', async () => {
    // The draw that picks a port from 10,000 up to below the ephemeral range.
    const drawFor = (port: number) => (port - 10_000 + 0.5) / (ephemeralStart - 10_000);
    const random = vi.spyOn(Math, 'random').mockReturnValueOnce(drawFor(10_080));
    try {
      expect(await freePort()).not.toBe(10_080);
    } finally {
      random.mockRestore();
    }
  });
});
