/** A JSON-RPC error the agent server answered (a refusal, a bad param, an unknown agent). */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
  ) {
    super(message);
  }
}

/** One server-sent event: its name and its JSON data. */
export interface ServerEvent {
  name: string;
  data: Record<string, unknown>;
}

let nextId = 0;

/**
 * The agent server's JSON-RPC (docs/console.md): `call` posts one request with the token; the
 * token lives in this object only, never in storage or the address.
 */
export class Rpc {
  readonly #token: string;

  constructor(token: string) {
    this.#token = token;
  }

  #post(method: string, params: object, agentId: string | undefined, signal?: AbortSignal): Promise<Response> {
    return fetch(agentId === undefined ? '/rpc' : `/agent/${encodeURIComponent(agentId)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.#token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params }),
      ...(signal ? { signal } : {}),
    });
  }

  /** Calls a method: a global one without `agentId`, else the agent's. */
  async call<T>(method: string, params: object = {}, agentId?: string): Promise<T> {
    const response = await this.#post(method, params, agentId);
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error) throw new RpcError(body.error.message, body.error.code, response.status);
    return body.result as T;
  }

  /** Streams `watch` (every agent, turn and approval change) to `onEvent` until `signal` aborts or the server goes. */
  async watch(onEvent: (event: ServerEvent) => void, signal: AbortSignal): Promise<void> {
    const response = await this.#post('watch', {}, undefined, signal);
    if (!response.ok || !response.body) throw new RpcError(`watch: HTTP ${response.status}`, 0, response.status);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name && data) onEvent({ name, data: JSON.parse(data) });
      }
    }
  }
}

/**
 * The token from the one-time link (`#code=…`), exchanged once at the server; the code leaves the
 * address bar before anything else happens. `undefined` without a code or when it was refused.
 */
export async function tokenFromLink(): Promise<string | undefined> {
  const code = new URLSearchParams(location.hash.slice(1)).get('code');
  if (!code) return undefined;
  history.replaceState(null, '', `${location.pathname}#/agents`);
  const response = await fetch('/console/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  if (!response.ok) return undefined;
  return ((await response.json()) as { token: string }).token;
}
