import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentPool, type AgentServer, parseAgentSettings, serveAgents } from '@nexus/agents';
import { agentSkills } from '@nexus/skills-agents';
import { fsSkills } from '@nexus/skills-fs';
import { describeSkillPackages, openSkillLibrary } from '@nexus/skills-md';
import { type LlmStandIn, startLlmStandIn, type TestDir, testdir } from '@nexus/test-utils';
import { type Browser, chromium, type Page } from 'playwright-core';
import { consoleAssetsDir } from '../src/index.js';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it), or `CHROMIUM_PATH`. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where screenshots of each page go (ignored by git). */
export const SCREENSHOTS = join(import.meta.dirname, '..', '..', '..', 'test-results', 'console');

const skillFile = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\ncommand: "echo ${name}"\n---\n# ${name}\n`;

/** SKILL.md packages under the user's config and the project's `.nexus/skills`. */
const SKILL_PACKAGES = {
  user: {
    review: { 'SKILL.md': skillFile('review', 'Reviews a change.'), 'README.md': '# review\n' },
    deploy: { 'SKILL.md': skillFile('deploy', 'Deploys the site.'), 'README.md': '# deploy\n' },
  },
  project: {
    lint: { 'SKILL.md': skillFile('lint', 'Lints the code.'), 'README.md': '# lint\n' },
    broken: { 'SKILL.md': '---\nname: broken\ndescription: "never closed\n---\n' },
  },
};

/** A real agent server with the console on 127.0.0.1, agents on the LLM stand-in, and a Chromium to look at it. */
export interface ConsoleFixture {
  llm: LlmStandIn;
  dir: TestDir;
  pool: AgentPool;
  server: AgentServer;
  browser: Browser;
  /** A JSON-RPC call as the token holder. */
  call<T = Record<string, unknown>>(method: string, params?: object, agentId?: string): Promise<T>;
  /** A fresh page with the console open, the token typed in, at `path` (a hash route). */
  open(path?: string): Promise<Page>;
  close(): Promise<void>;
}

/** Starts the fixture; `withModel: false` configures no model at all. */
export async function startConsole(options: { withModel?: boolean } = {}): Promise<ConsoleFixture> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  if (!existsSync(join(consoleAssetsDir, 'index.html'))) throw new Error('The console is not built; run the build first.');
  const llm = await startLlmStandIn();
  const dir = await testdir({
    work: { 'notes.md': '# Notes\n', '.nexus': { skills: SKILL_PACKAGES.project } },
    state: {},
    home: {},
    config: { skills: SKILL_PACKAGES.user },
  });
  const settings = parseAgentSettings(
    options.withModel === false
      ? {}
      : {
          providers: { local: { type: 'openai-compatible', baseUrl: llm.url } },
          models: { fast: { provider: 'local', id: 'test-model' } },
          defaultModel: 'fast',
        },
  );
  const pool = new AgentPool({ settings, families: [fsSkills, agentSkills], cwd: dir.join('work'), stateDir: dir.join('state'), env: {} });
  // The Skills page's packages: one user package loaded (pinned), one a ghost; a project package never trusted, one broken.
  const library = await openSkillLibrary({
    cwd: dir.join('work'),
    configDirectory: dir.join('config'),
    stateDirectory: dir.join('state'),
    homeDirectory: dir.join('home'),
    env: {},
    maxLoaded: 1,
    pinned: ['review'],
    watch: false,
  });
  const server = await serveAgents(pool, {
    port: 0,
    env: {},
    stateDir: dir.join('state'),
    console: { assetsDir: consoleAssetsDir },
    skillPackages: () => describeSkillPackages(library, dir.join('state')),
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  await mkdir(SCREENSHOTS, { recursive: true });
  return {
    llm,
    dir,
    pool,
    server,
    browser,
    async call<T>(method: string, params: object = {}, agentId?: string) {
      const response = await fetch(`${server.url}${agentId ? `/agent/${agentId}` : '/'}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await response.json()) as { result?: T; error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result as T;
    },
    async open(path = '#/agents') {
      const page = await browser.newPage();
      await page.goto(`${server.url}/console/`);
      await page.getByLabel('Server token').fill(server.token);
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByRole('status').getByText('live').waitFor();
      await page.evaluate((hash) => {
        location.hash = hash;
      }, path);
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
      await library.close();
      await llm.close();
      await dir.cleanup();
    },
  };
}
