import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running {@link startRoundRobinProxy}. */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>`; append the path the backends serve. */
  readonly origin: string;
  /** The backend index each request went to, in order of arrival. */
  readonly hits: readonly number[];
  close(): Promise<void>;
}

/**
 * A plain round-robin load balancer on 127.0.0.1, as in front of a stateless service: request n
 * goes to backend n mod count, with no stickiness of any kind. Each request is streamed through
 * as it comes (`Host` rewritten to the backend's), each answer streamed back.
 */
export async function startRoundRobinProxy(backendPorts: readonly number[]): Promise<RoundRobinProxy> {
  const hits: number[] = [];
  const proxy = createServer((request, response) => {
    const index = hits.length % backendPorts.length;
    hits.push(index);
    const port = backendPorts[index] as number;
    const headers = { ...request.headers, host: `127.0.0.1:${port}` };
    const forwarded = httpRequest({ host: '127.0.0.1', port, method: request.method, path: request.url, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
      // A backend that dies mid-answer leaves the answer cut short, as a crashed server's would be.
      answer.on('close', () => {
        if (!answer.complete) response.destroy();
      });
    });
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
