import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { type RoundRobinProxy, startRoundRobinProxy } from './index.js';

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

it('ends the answer when its backend dies mid-answer, as a crashed server would leave its client', async () => {
  const backend = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('partial');
    setImmediate(() => response.socket?.destroy());
  });
  backend.listen(0, '127.0.0.1');
  await once(backend, 'listening');
  closing.push(() => new Promise((resolve) => backend.close(resolve)));
  const proxy: RoundRobinProxy = await startRoundRobinProxy([(backend.address() as AddressInfo).port]);
  closing.push(() => proxy.close());

  const response = await fetch(proxy.origin);

  await expect(response.text()).rejects.toThrow();
});
