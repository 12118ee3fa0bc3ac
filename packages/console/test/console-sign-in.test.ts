import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentPool, type AgentServer, parseAgentSettings, serveAgents } from '@nexus/agents';
import { fsSkills } from '@nexus/skills-fs';
import { freePort, type OidcStandIn, startOidcProvider, type TestDir, testdir } from '@nexus/test-utils';
import { type Browser, chromium } from 'playwright-core';
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
  idp = await startOidcProvider({ audience: url, users: { carol: { email: 'carol@ops.test', groups: ['ops'] } } });
  // The console as a public client of the issuer (dynamic registration), its redirect URI the page.
  const registration = await fetch(`${idp.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [`${url}/console/`],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }),
  });
  const { client_id: clientId } = (await registration.json()) as { client_id: string };
  dir = await testdir({ work: {}, state: {} });
  const pool = new AgentPool({
    settings: parseAgentSettings({}),
    families: [fsSkills],
    cwd: dir.join('work'),
    stateDir: dir.join('state'),
    env: {},
  });
  const auth = { issuer: idp.issuer, audience: url, users: [{ match: { groups: 'ops' }, admin: true }] };
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
  });
});
