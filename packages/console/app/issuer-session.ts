import type { Credentials } from './rpc.js';

/** What a token endpoint answered that a session keeps, in memory only. */
export interface IssuedTokens {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly expires_in?: number;
}

/** How early an access token is renewed: a fifth of its lifetime before it expires, at most a minute. */
const renewalLead = (lifetime: number) => Math.min(60_000, lifetime / 5);

/**
 * A person's tokens from the issuer, held in this object only: the access token is renewed with
 * the refresh token (when the issuer gave one) shortly before it expires, and when the server
 * refuses it. Once renewal is impossible or refused the session ends: the tokens are forgotten
 * and `onEnded` is told, once — the person signs in again by their own click, never by a loop.
 */
export class IssuerSession implements Credentials {
  #token = '';
  #refreshToken: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #renewing: Promise<boolean> | undefined;
  #closed = false;
  readonly #renewedListeners = new Set<() => void>();

  constructor(
    tokens: IssuedTokens,
    private readonly renewal: (refreshToken: string) => Promise<IssuedTokens>,
    private readonly onEnded: () => void,
  ) {
    this.#take(tokens);
  }

  get token(): string {
    return this.#token;
  }

  renew(refused: string): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    // Another request already got the token that replaced the refused one.
    if (refused !== this.#token) return Promise.resolve(true);
    this.#renewing ??= this.#refresh().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  onRenewed(listener: () => void): () => void {
    this.#renewedListeners.add(listener);
    return () => this.#renewedListeners.delete(listener);
  }

  /** Forgets the tokens and stops renewing, without telling anyone (the page gave up on them itself). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#token = '';
    this.#refreshToken = undefined;
  }

  /** Ends the session: the tokens are forgotten and `onEnded` is told (once). */
  end(): void {
    if (this.#closed) return;
    this.close();
    this.onEnded();
  }

  async #refresh(): Promise<boolean> {
    clearTimeout(this.#timer);
    const refreshToken = this.#refreshToken;
    if (refreshToken !== undefined) {
      try {
        const tokens = await this.renewal(refreshToken);
        if (this.#closed) return false;
        this.#take(tokens);
        for (const listener of this.#renewedListeners) listener();
        return true;
      } catch {
        // Refused or unreachable: either way this session cannot go on.
      }
    }
    this.end();
    return false;
  }

  #take(tokens: IssuedTokens): void {
    this.#token = tokens.access_token;
    // An issuer that does not rotate refresh tokens answers without one: the old one stays good.
    this.#refreshToken = tokens.refresh_token ?? this.#refreshToken;
    if (tokens.expires_in === undefined) return;
    const lifetime = tokens.expires_in * 1000;
    const renewAt = this.#refreshToken === undefined ? lifetime : lifetime - renewalLead(lifetime);
    this.#timer = setTimeout(() => void this.renew(this.#token), renewAt);
  }
}
