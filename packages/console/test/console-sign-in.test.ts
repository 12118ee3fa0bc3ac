import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentPool, type AgentServer, parseAgentSettings, serveAgents } from '@nexus/agents';
import { fsSkills } from '@nexus/skills-fs';
import { freePort, type OidcStandIn, startOidcProvider, type TestDir, testdir, waitUntil } from '@nexus/test-utils';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAssetsDir } from '../src/index.js';
import { CHROMIUM } from './console-fixture.js';

let idp: OidcStandIn;
let dir: TestDir;
let server: AgentServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(consoleAssetsDir, 'index.html'))) throw new Error('The console is not built; run the build first.');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Access tokens that expire within seconds, so the page must renew them while the tests run.
  idp = await startOidcProvider({
    audience: url,
    users: { carol: { email: 'carol@ops.test', groups: ['ops'] }, dave: { email: 'dave@dev.test', groups: ['dev'] } },
    accessTokenTTL: 3,
  });
  // The console as a public client of the issuer (dynamic registration), its redirect URI the page.
  const registration = await fetch(`${idp.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [`${url}/console/`],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  const { client_id: clientId } = (await registration.json()) as { client_id: string };
  dir = await testdir({ work: { 'notes.md': '# Notes\n' }, state: {} });
  const pool = new AgentPool({
    settings: parseAgentSettings({}),
    families: [fsSkills],
    cwd: dir.join('work'),
    stateDir: dir.join('state'),
    env: {},
  });
  const auth = {
    issuer: idp.issuer,
    audience: url,
    clockToleranceSeconds: 0,
    users: [{ match: { groups: 'ops' }, admin: true }, { match: { groups: 'dev' } }],
  };
  server = await serveAgents(pool, {
    port,
    env: {},
    stateDir: dir.join('state'),
    auth,
    console: { assetsDir: consoleAssetsDir, signIn: { issuer: idp.issuer, clientId, scope: 'openid api', resource: url } },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await idp?.close();
  await dir?.cleanup();
});

/** What the page keeps beyond its memory: storage, cookies and the address (no token may be there). */
const keptByPage = (page: Page) =>
  page.evaluate(() =>
    JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, href: location.href }),
  );

/** A page whose person signs in as `user` at the issuer (the provider's own forms, walked by the fixture); counts its trips there. */
async function signedIn(user: string, prepare?: (page: Page) => Promise<unknown>): Promise<{ page: Page; authorizations: () => number }> {
  const page = await browser.newPage();
  await prepare?.(page);
  let authorizations = 0;
  await page.route(
    (url) => url.href.startsWith(`${idp.issuer}/auth`),
    async (route) => {
      authorizations++;
      const back = await idp.authorizeAs(user, new URL(route.request().url()));
      await route.fulfill({ status: 302, headers: { location: back.href } });
    },
  );
  await page.goto(`${server.url}/console/`);
  await page.getByRole('button', { name: `Sign in with ${new URL(idp.issuer).host}` }).click();
  await page.getByRole('status').getByText('live').waitFor();
  return { page, authorizations: () => authorizations };
}

const refreshes = () => idp.grants.refresh_token ?? 0;

describe('the console signs in through the issuer', () => {
  it('runs the authorization code flow with PKCE in the page, and keeps the token in memory only', async () => {
    const page = await browser.newPage();
    const refusedByCsp: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/.test(message.text())) refusedByCsp.push(message.text());
    });
    // The person at the issuer's sign-in and consent forms (the provider's own pages, walked by the fixture).
    let authorization: URL | undefined;
    await page.route(
      (url) => url.href.startsWith(`${idp.issuer}/auth`),
      async (route) => {
        authorization = new URL(route.request().url());
        const back = await idp.authorizeAs('carol', authorization);
        await route.fulfill({ status: 302, headers: { location: back.href } });
      },
    );
    await page.goto(`${server.url}/console/`);
    await page.getByRole('button', { name: `Sign in with ${new URL(idp.issuer).host}` }).click();
    await page.getByRole('status').getByText('live').waitFor();

    expect(authorization?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization?.searchParams.get('state')).toBeTruthy();
    expect(idp.grants.authorization_code).toBe(1);
    const kept = await page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, href: location.href }),
    );
    expect(kept).not.toMatch(/eyJ|code=/);
    expect(new URL(page.url()).search).toBe('');
    expect(refusedByCsp).toEqual([]);
    await page.close();
  });

  it('keeps working after the access token expires: renews it with the refresh token, held in memory only, and watches again with the new one', async () => {
    const { page, authorizations } = await signedIn('carol');
    const watchTokens = new Set<string>();
    page.on('request', (request) => {
      if (request.postData()?.includes('"method":"watch"')) watchTokens.add(request.headers().authorization ?? '');
    });
    const before = refreshes();
    // Each token is renewed before it expires, so by the second renewal the first has expired.
    await expect.poll(refreshes, { timeout: 30_000 }).toBeGreaterThanOrEqual(before + 2);
    // The watch stream was opened again with each new token.
    await expect.poll(() => watchTokens.size, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await page.getByRole('status').getByText('live').waitFor();
    // An admin's Tools page lists and runs a tool with the token of now.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tools' }).click();
    await page.getByRole('list', { name: 'Tools' }).getByRole('button', { name: 'read_file' }).click();
    await page.getByLabel(/^path/).fill('notes.md');
    await page.getByRole('button', { name: 'Run read_file' }).click();
    await page.getByRole('region', { name: 'Result' }).getByText('success').waitFor();

    expect(authorizations()).toBe(1);
    expect(JSON.parse(await keptByPage(page))).toMatchObject({ local: {}, session: {}, cookie: '' });
    await page.close();
  });

  it('renews a token the server refused as expired and sends the call again, when the issuer did not say when it expires', async () => {
    let expiresAt = 0;
    const { page } = await signedIn('carol', (page) =>
      page.route(`${idp.issuer}/token`, async (route) => {
        const response = await route.fetch();
        const { expires_in: _left, ...tokens } = (await response.json()) as { access_token: string; expires_in?: number };
        expiresAt = (JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }).exp;
        await route.fulfill({ response, json: tokens });
      }),
    );
    const before = refreshes();
    await waitUntil(() => Date.now() / 1000 > expiresAt + 1, 'the access token to expire');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tools' }).click();
    await page.getByRole('list', { name: 'Tools' }).getByRole('button', { name: 'read_file' }).waitFor();
    expect(refreshes()).toBe(before + 1);
    await page.close();
  });

  it('says the session ended and offers to sign in again when the issuer refuses the refresh token — once, without going back by itself', async () => {
    const { page, authorizations } = await signedIn('carol');
    await idp.revokeRefreshTokens();
    await page
      .getByRole('alert')
      .getByText(/session .*ended/i)
      .waitFor();
    await page.getByRole('button', { name: `Sign in with ${new URL(idp.issuer).host}` }).waitFor();
    expect(authorizations()).toBe(1);
    expect(new URL(page.url()).origin).toBe(server.url);
    await page.close();
  });

  it('shows a person who is not an admin only the pages they may use: no Tools or Skills, and their addresses land on Agents', async () => {
    const { page } = await signedIn('dave');
    for (const hidden of ['#/tools', '#/skills']) {
      await page.evaluate((hash) => {
        location.hash = hash;
      }, hidden);
      await expect.poll(() => new URL(page.url()).hash).toBe('#/agents');
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    }
    const pages = page.getByRole('navigation', { name: 'Pages' }).getByRole('link');
    expect(await pages.allTextContents()).toEqual(['Agents', 'Approvals']);
    await page.close();
  });
});
