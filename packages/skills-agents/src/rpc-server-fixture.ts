import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '@nexus/core/http';

/** A request the test server received. */
export interface ReceivedRpcRequest {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The parsed JSON body. */
  body: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
}

/** What the test server answers an authorised request with. */
export type RpcReply = { result: unknown } | { error: { code: number; message: string } } | { status: number; text: string };

/** A JSON-RPC server on 127.0.0.1 for the client's tests: bearer check, then whatever `reply` says. */
export interface TestRpcServer {
  readonly port: number;
  readonly requests: ReceivedRpcRequest[];
  close(): Promise<void>;
}

/**
 * Starts a minimal agent-server stand-in (tests only): `POST` with `Authorization: Bearer <token>`
 * (401 without, 403 with another), then `reply(request)` as a JSON-RPC answer or a raw HTTP one.
 */
export async function startTestRpcServer(token: string, reply: (request: ReceivedRpcRequest) => RpcReply): Promise<TestRpcServer> {
  const requests: ReceivedRpcRequest[] = [];
  const server = createServer(async (request, response) => {
    const received: ReceivedRpcRequest = {
      path: request.url ?? '',
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body: JSON.parse((await readBody(request, 1024 * 1024)) ?? 'null'),
    };
    requests.push(received);
    const send = (status: number, text: string) => response.writeHead(status, { 'content-type': 'application/json' }).end(text);
    if (received.authorization === undefined) return send(401, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"No token"}}');
    if (received.authorization !== `Bearer ${token}`) return send(403, '');
    const answer = reply(received);
    if ('status' in answer) return send(answer.status, answer.text);
    send(200, JSON.stringify({ jsonrpc: '2.0', id: received.body.id, ...answer }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
