import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { readBody, tokenDigest } from '@nexus/core/http';

/** Options of the console a server serves (`ServeAgentsOptions.console`). */
export interface ConsoleOptions {
  /** The built page: `index.html` and its assets (`@nexus/console`'s `consoleAssetsDir`). */
  assetsDir: string;
  /**
   * Signing in through an OpenID Connect issuer (authorization code + PKCE in the page): the
   * issuer, the public client the console is registered as (its redirect URI is the page,
   * `<server>/console/`), the scope to ask for and the resource (audience) the token is for. The
   * page reads them at `/console/sign-in.json`; its CSP lets it reach the issuer.
   */
  signIn?: { issuer: string; clientId: string; scope: string; resource: string };
}

/** What a console route answered: `undefined` when the request is not the console's. */
export type ConsoleAnswer = { status: number; message: string } | 'answered' | undefined;

/** The console's routes on the agent server (docs/console.md). */
export interface ConsoleRoutes {
  /** The link `nexus serve` prints: the page, with a code it exchanges once for the token. */
  readonly link: (serverUrl: string) => string;
  /**
   * Answers `GET /` (a redirect), `GET /console/…` (the page, no token needed) and
   * `POST /console/session` (the code for the token, from one of `pageOrigins`); a refusal is
   * returned for the server to send.
   */
  readonly answer: (request: IncomingMessage, response: ServerResponse, pageOrigins: ReadonlySet<string>) => Promise<ConsoleAnswer>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The page's own files only (and, to sign in, the issuer's endpoints); no inline script or style, no other origin, no framing. */
const contentSecurityPolicy = (issuer: string | undefined) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    issuer === undefined ? "connect-src 'self'" : `connect-src 'self' ${new URL(issuer).origin}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

const PAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const MAX_SESSION_BODY_BYTES = 1024;

interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

/**
 * Every file of the built page, read once, by its path under `/console/`: a request names one of
 * them exactly or gets 404, so no path it sends can reach another file.
 */
async function readAssets(dir: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const type = CONTENT_TYPES[extname(entry.name)] ?? 'application/octet-stream';
    assets.set(relative(dir, file).split(sep).join('/'), { body: await readFile(file), type });
  }
  return assets;
}

function sameDigest(a: string, expected: Buffer): boolean {
  return timingSafeEqual(tokenDigest(a), expected);
}

/**
 * The console's routes for a server whose token is `token`: its page read from
 * `options.assetsDir`, and a one-time code for the link, which is good for one exchange.
 */
export async function consoleRoutes(options: ConsoleOptions, token: string): Promise<ConsoleRoutes> {
  const assets = await readAssets(options.assetsDir);
  if (options.signIn) {
    const body = Buffer.from(JSON.stringify(options.signIn));
    assets.set('sign-in.json', { body, type: CONTENT_TYPES['.json'] as string });
  }
  const headers = { ...PAGE_HEADERS, 'content-security-policy': contentSecurityPolicy(options.signIn?.issuer) };
  if (!assets.has('index.html')) throw new Error(`No index.html in the console's assets (${options.assetsDir}); build @nexus/console.`);
  let codeDigest: Buffer | undefined;
  const code = randomBytes(24).toString('base64url');
  codeDigest = tokenDigest(code);

  const exchange = async (request: IncomingMessage, response: ServerResponse, pageOrigins: ReadonlySet<string>): Promise<ConsoleAnswer> => {
    if (!pageOrigins.has(request.headers.origin ?? '')) return { status: 403, message: 'The code is exchanged by the console page only.' };
    const text = await readBody(request, MAX_SESSION_BODY_BYTES);
    let sent: unknown;
    try {
      sent = JSON.parse(text ?? '');
    } catch {
      return { status: 400, message: 'Expected {"code": "…"}.' };
    }
    const given = (sent as { code?: unknown } | null)?.code;
    if (typeof given !== 'string' || codeDigest === undefined || !sameDigest(given, codeDigest))
      return { status: 403, message: 'This code is wrong or was used already; enter the token.' };
    codeDigest = undefined;
    const body = JSON.stringify({ token });
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
    response.end(body);
    return 'answered';
  };

  return {
    link: (serverUrl) => `${serverUrl}/console/#code=${code}`,
    async answer(request, response, pageOrigins) {
      const path = (request.url ?? '/').split('?', 1)[0] as string;
      if (request.method === 'POST' && path === '/console/session') return exchange(request, response, pageOrigins);
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      if (path === '/' || path === '/console') {
        response.writeHead(302, { location: '/console/', 'content-length': 0 });
        response.end();
        return 'answered';
      }
      if (!path.startsWith('/console/')) return undefined;
      const name = path.slice('/console/'.length) || 'index.html';
      const asset = assets.get(name);
      if (!asset) return { status: 404, message: `Not found: ${path}.` };
      response.writeHead(200, {
        ...headers,
        'content-type': asset.type,
        'content-length': asset.body.length,
        // Vite names assets by their content; the page itself may change with a new build.
        'cache-control': name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-store',
      });
      response.end(request.method === 'HEAD' ? undefined : asset.body);
      return 'answered';
    },
  };
}
