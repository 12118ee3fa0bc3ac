import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { constants } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import {
  auth,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { atomicWriteVerified, NexusError, openVerified } from '@nexus/core';

/** What the login of one MCP server keeps between runs, in its file (0600). */
interface SavedLogin {
  client?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
}

/** How Nexus signs in to an MCP server that wants OAuth (`mcpServers.<name>.auth: "oauth"`). */
export interface OAuthClientOptions {
  /** The MCP server's URL: the protected resource. */
  serverUrl: string;
  /** Where the client, its tokens and the login's state are kept (created 0600; its folder 0700). */
  file: string;
  /** A client the authorization server already knows; without it, the client registers itself (RFC 7591). */
  clientId?: string;
  clientSecret?: string;
  /** The scope to ask for (default: what the server's metadata names). */
  scope?: string;
}

/** A login that did not complete. */
export class OAuthLoginError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/auth/OAuthLoginError');
  static override readonly code: string = 'OAUTH_LOGIN';
}

async function readSaved(file: string): Promise<SavedLogin> {
  try {
    const handle = await openVerified(file, constants.O_RDONLY);
    return JSON.parse(await handle.readFile('utf8').finally(() => handle.close())) as SavedLogin;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

/**
 * The MCP SDK's `OAuthClientProvider` over one file: what the SDK's `auth()` and its HTTP
 * transport need to discover the authorization server, register, run the authorization-code flow
 * with PKCE and refresh tokens. The tokens stay in the file and go only where the SDK sends them:
 * the server they were issued for.
 */
export class FileOAuthClient implements OAuthClientProvider {
  readonly #options: OAuthClientOptions;
  #redirectUrl: string | undefined;
  #onAuthorizationUrl: ((url: URL) => void | Promise<void>) | undefined;
  #state: string | undefined;

  constructor(options: OAuthClientOptions) {
    this.#options = options;
  }

  get redirectUrl(): string | undefined {
    return this.#redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Nexus',
      redirect_uris: this.#redirectUrl ? [this.#redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.#options.clientSecret ? 'client_secret_post' : 'none',
      application_type: 'native',
      ...(this.#options.scope ? { scope: this.#options.scope } : {}),
    } as OAuthClientMetadata;
  }

  state(): string {
    this.#state = randomBytes(16).toString('base64url');
    return this.#state;
  }

  /** The `state` of the authorization request under way. */
  get expectedState(): string | undefined {
    return this.#state;
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const { clientId, clientSecret } = this.#options;
    if (clientId) return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) } as StoredOAuthClientInformation;
    const { client } = await readSaved(this.#options.file);
    // Registering needs the redirect of a login: outside one, there is nothing to do but ask for it.
    if (!client && !this.#onAuthorizationUrl) throw this.#loginNeeded();
    return client;
  }

  #loginNeeded(): OAuthLoginError {
    return new OAuthLoginError(`${this.#options.serverUrl} needs a login: run \`nexus mcp-servers login\`.`);
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    await this.#update({ client });
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await readSaved(this.#options.file)).tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.#update({ tokens });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.#onAuthorizationUrl) throw this.#loginNeeded();
    await this.#onAuthorizationUrl(url);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.#update({ codeVerifier });
  }

  async codeVerifier(): Promise<string> {
    const { codeVerifier } = await readSaved(this.#options.file);
    if (!codeVerifier) throw new OAuthLoginError('No login is under way (no PKCE code verifier was saved).');
    return codeVerifier;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.#update({ discovery });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await readSaved(this.#options.file)).discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const saved = await readSaved(this.#options.file);
    const drop: Record<typeof scope, Array<keyof SavedLogin>> = {
      all: ['client', 'tokens', 'codeVerifier', 'discovery'],
      client: ['client'],
      tokens: ['tokens'],
      verifier: ['codeVerifier'],
      discovery: ['discovery'],
    };
    for (const key of drop[scope]) delete saved[key];
    await this.#write(saved);
  }

  /**
   * Signs in: listens for the redirect on a loopback port, hands the authorization URL to
   * `openUrl` (print it, open a browser), and once the person has approved, exchanges the code
   * for tokens (saved). Refuses a redirect whose `state` is not the one sent.
   */
  async login(openUrl: (url: URL) => void | Promise<void>, options: { signal?: AbortSignal } = {}): Promise<void> {
    const { serverUrl, scope } = this.#options;
    const redirect = await listenForRedirect();
    try {
      this.#redirectUrl = redirect.url;
      this.#onAuthorizationUrl = openUrl;
      const first = await auth(this, { serverUrl, ...(scope ? { scope } : {}) });
      if (first === 'AUTHORIZED') return;
      const callback = await redirect.next(options.signal);
      const error = callback.searchParams.get('error');
      if (error)
        throw new OAuthLoginError(
          `The authorization server refused the login: ${error} ${callback.searchParams.get('error_description') ?? ''}`.trim(),
        );
      if (!this.#state || callback.searchParams.get('state') !== this.#state)
        throw new OAuthLoginError('The login came back with another state: refused.');
      const code = callback.searchParams.get('code');
      if (!code) throw new OAuthLoginError('The login came back without a code.');
      const iss = callback.searchParams.get('iss');
      await auth(this, { serverUrl, authorizationCode: code, ...(iss ? { iss } : {}), ...(scope ? { scope } : {}) });
      await this.#update({ codeVerifier: undefined });
    } finally {
      this.#onAuthorizationUrl = undefined;
      await redirect.close();
    }
  }

  async #update(change: Partial<SavedLogin>): Promise<void> {
    await this.#write({ ...(await readSaved(this.#options.file)), ...change });
  }

  async #write(saved: SavedLogin): Promise<void> {
    await mkdir(dirname(this.#options.file), { recursive: true, mode: 0o700 });
    await atomicWriteVerified(this.#options.file, Buffer.from(JSON.stringify(saved)), { mode: 0o600 });
  }
}

/** A loopback HTTP server that waits for the authorization server's redirect (RFC 8252 §7.3). */
async function listenForRedirect() {
  const server = createServer();
  const arrived: URL[] = [];
  let waiting: ((url: URL) => void) | undefined;
  server.on('request', (request, response) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1`);
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Nexus is signed in. You may close this window.\n');
    arrived.push(url);
    waiting?.(url);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next(signal?: AbortSignal): Promise<URL> {
      const ready = arrived.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise<URL>((resolve, reject) => {
        waiting = resolve;
        signal?.addEventListener('abort', () => reject(new OAuthLoginError('The login was cancelled.')), { once: true });
      });
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
