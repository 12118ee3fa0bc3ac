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

/** Where the page's bearer token comes from; it lives in memory only, never in storage or the address. */
export interface Credentials {
  /** The token to send now. */
  readonly token: string;
  /**
   * Gets a new token once the server refused `refused` as invalid (401): `true` when `token` is a
   * new one to retry with, `false` when none can be had.
   */
  renew(refused: string): Promise<boolean>;
  /** Calls `listener` each time the token is renewed (a stream opened with the old one opens again); returns how to stop. */
  onRenewed?(listener: () => void): () => void;
}

/** A token given once (typed, or from the one-time link): nothing renews it. */
export function fixedToken(token: string): Credentials {
  return { token, renew: async () => false };
}

/** A 401 whose challenge says the token is invalid (expired, among others): worth one renewal. */
const invalidToken = (response: Response) =>
  response.status === 401 && /\binvalid_token\b/.test(response.headers.get('www-authenticate') ?? '');

let nextId = 0;

/**
 * The agent server's JSON-RPC (docs/console.md): `call` posts one request with the current token;
 * a request refused for an invalid token is sent once more after the token is renewed.
 */
export class Rpc {
  readonly #credentials: Credentials;
  /** The id of the last change `watch` streamed: a stream opened again resumes after it. */
  #lastChange: string | undefined;

  constructor(credentials: Credentials) {
    this.#credentials = credentials;
  }

  async #post(method: string, params: object, agentId: string | undefined, signal?: AbortSignal): Promise<Response> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params });
    const send = (token: string) =>
      fetch(agentId === undefined ? '/rpc' : `/agent/${encodeURIComponent(agentId)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
        ...(signal ? { signal } : {}),
      });
    const token = this.#credentials.token;
    const response = await send(token);
    if (!invalidToken(response) || !(await this.#credentials.renew(token))) return response;
    await response.body?.cancel();
    return send(this.#credentials.token);
  }

  /** Calls a method: a global one without `agentId`, else the agent's. */
  async call<T>(method: string, params: object = {}, agentId?: string): Promise<T> {
    const response = await this.#post(method, params, agentId);
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error) throw new RpcError(body.error.message, body.error.code, response.status);
    return body.result as T;
  }

  /**
   * Streams `watch` (every agent, turn and approval change) to `onEvent` until `signal` aborts or
   * the server goes. When the token is renewed the stream is opened again with the new one (a new
   * `ready` follows, after which the page lists again), so no stream outlives the token it was
   * opened with. Each stream after the first asks for the changes since the last one it had
   * (`after`): the server sends them first when it still has them all (`ready`'s `resumed`).
   */
  async watch(onEvent: (event: ServerEvent) => void, signal: AbortSignal): Promise<void> {
    for (;;) {
      const renewed = new AbortController();
      const stopListening = this.#credentials.onRenewed?.(() => renewed.abort());
      try {
        return await this.#watchOnce(onEvent, AbortSignal.any([signal, renewed.signal]));
      } catch (failure) {
        if (signal.aborted || !renewed.signal.aborted) throw failure;
      } finally {
        stopListening?.();
      }
    }
  }

  async #watchOnce(onEvent: (event: ServerEvent) => void, signal: AbortSignal): Promise<void> {
    const response = await this.#post('watch', this.#lastChange ? { after: this.#lastChange } : {}, undefined, signal);
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
        const id = /^id: (.*)$/m.exec(block)?.[1];
        if (!name || !data) continue;
        if (id) this.#lastChange = id;
        onEvent({ name, data: JSON.parse(data) });
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
