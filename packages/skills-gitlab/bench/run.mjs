// Benchmark of @nexus/skills-gitlab against its built `dist/`: the size of the tool
// definitions (what every LLM call pays), the actions covered against the specification, and
// the cost of a skill call over a bare HTTP request to a local GitLab-shaped server.
// Figures only, no pass/fail. Run after a build: `node bench/run.mjs`.

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import got from 'got';
import { gitlabSkills } from '../dist/index.js';

/** The actions of each skill in the specification (specs/gitlab-skills.md §3). */
const SPEC_ACTIONS = {
  gitlab_repo: ['get', 'list', 'search', 'fork', 'whoami'],
  gitlab_issue: ['list', 'get', 'create', 'update', 'close', 'reopen', 'comment'],
  gitlab_mr: ['list', 'get', 'create', 'update', 'merge', 'close', 'reopen', 'comment', 'diff', 'commits', 'pipelines'],
  gitlab_label: ['list', 'get', 'create', 'update', 'delete'],
  gitlab_branch: ['list', 'get', 'create', 'delete', 'protect', 'unprotect', 'list-protected'],
  gitlab_tag: ['list', 'get', 'create', 'delete', 'protect', 'unprotect', 'list-protected'],
  gitlab_epic: ['list', 'get', 'create', 'update', 'close', 'reopen', 'add-issue', 'remove-issue', 'list-issues'],
  gitlab_iteration: ['list', 'get', 'create', 'update', 'delete', 'list-cadences', 'create-cadence'],
  gitlab_milestone: ['list', 'get', 'create', 'update', 'close', 'issues', 'merge-requests'],
  gitlab_board: ['list', 'get', 'create', 'update', 'delete', 'list-lists', 'create-list', 'update-list', 'delete-list'],
  gitlab_time: ['estimate', 'reset-estimate', 'spend', 'reset-spent', 'stats'],
  gitlab_approval: ['status', 'approve', 'unapprove', 'rules', 'create-rule', 'delete-rule'],
  gitlab_draft: ['list', 'add', 'update', 'delete', 'publish'],
  gitlab_discussion: ['list', 'get', 'create', 'reply', 'resolve', 'unresolve'],
  gitlab_pipeline: ['list', 'get', 'create', 'retry', 'cancel', 'delete', 'jobs', 'variables'],
  gitlab_job: ['list', 'get', 'log', 'retry', 'cancel', 'play', 'erase'],
  gitlab_artifact: ['browse', 'download', 'download-file', 'download-ref', 'delete', 'keep'],
  gitlab_variable: ['list', 'get', 'create', 'update', 'delete'],
  gitlab_deploy_key: ['list', 'get', 'create', 'update', 'delete', 'enable'],
  gitlab_deploy_token: ['list', 'get', 'create', 'delete'],
  gitlab_feature_flag: [
    'list',
    'get',
    'create',
    'update',
    'delete',
    'list-user-lists',
    'create-user-list',
    'update-user-list',
    'delete-user-list',
  ],
};
/** The original's 21 definitions, as the specification puts it (§1.3: "~8k tokens"). */
const BASELINE_TOKENS = 8_000;
const TOKEN = 'bench-token';
const CALLS = 300;

const pad = (value, width) => String(value).padStart(width);

function definitionFigures() {
  const definitions = new SkillRegistry().use(gitlabSkills).getDefinitions();
  const chars = JSON.stringify(definitions).length;
  const tokens = Math.round(chars / 4);
  console.log('Tool definitions (OpenAI format, JSON.stringify)');
  for (const definition of definitions)
    console.log(`  ${definition.function.name.padEnd(22)} ${pad(JSON.stringify(definition).length, 6)} chars`);
  console.log(`  ${`all ${definitions.length}`.padEnd(22)} ${pad(chars, 6)} chars  ≈ ${tokens} tokens (chars/4)`);
  console.log(`  baseline (original)    ≈ ${BASELINE_TOKENS} tokens   ratio ${(tokens / BASELINE_TOKENS).toFixed(2)}`);
}

function coverageFigures() {
  let specified = 0;
  let covered = 0;
  const extra = [];
  const missing = [];
  for (const spec of gitlabSkills.skills) {
    const actions = spec.parameters.properties.action.enum;
    const wanted = SPEC_ACTIONS[spec.name] ?? [];
    specified += wanted.length;
    covered += wanted.filter((action) => actions.includes(action)).length;
    missing.push(...wanted.filter((action) => !actions.includes(action)).map((action) => `${spec.name} ${action}`));
    extra.push(...actions.filter((action) => !wanted.includes(action)).map((action) => `${spec.name} ${action}`));
  }
  console.log('\nAction coverage against the specification');
  console.log(
    `  skills ${gitlabSkills.skills.length} (21 specified), actions ${covered}/${specified} (ratio ${(covered / specified).toFixed(2)})`,
  );
  console.log(`  missing: ${missing.join(', ') || 'none'}; beyond the spec: ${extra.join(', ') || 'none'}`);
}

async function startServer() {
  const issue = JSON.stringify({
    iid: 1,
    title: 'Bench issue',
    state: 'opened',
    labels: ['bug'],
    author: { username: 'alice' },
    description: 'text',
  });
  const page = (start) =>
    JSON.stringify(
      Array.from({ length: 100 }, (_, index) => ({ iid: start + index, title: `Issue ${start + index}`, state: 'opened', labels: [] })),
    );
  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    if (url.pathname.endsWith('/issues')) {
      const number = Number(url.searchParams.get('page') ?? 1);
      response.writeHead(200, { 'content-type': 'application/json', 'x-next-page': number < 10 ? String(number + 1) : '' });
      response.end(page((number - 1) * 100 + 1));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(issue);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

async function timeIt(count, run) {
  for (let index = 0; index < 20; index++) await run();
  const start = performance.now();
  for (let index = 0; index < count; index++) await run();
  return (performance.now() - start) / count;
}

async function callFigures() {
  const { server, url } = await startServer();
  const cwd = await mkdtemp(join(tmpdir(), 'nexus-gitlab-bench-'));
  try {
    const services = new ServiceContainer()
      .register('cwd', cwd)
      .register('permissions', resolvePreset('yolo', { cwd }))
      .register('gitlab', { instances: { bench: { url, token: TOKEN } } });
    const registry = new SkillRegistry(services).use(gitlabSkills);
    const path = '/api/v4/projects/group%2Fproject/issues/1';
    const bare = await timeIt(CALLS, () =>
      got(`${url}${path}`, { headers: { 'private-token': TOKEN }, responseType: 'json', retry: { limit: 0 } }),
    );
    const skill = await timeIt(CALLS, async () => {
      const result = await registry.execute('gitlab_issue', { action: 'get', instance: 'bench', project: 'group/project', iid: 1 });
      if (!result.success) throw new Error(result.error);
    });
    const detected = await timeIt(50, () => registry.execute('gitlab_issue', { action: 'get', project: 'group/project', iid: 1 }));
    const bareList = await timeIt(20, async () => {
      for (let number = 1; number <= 10; number++)
        await got(`${url}/api/v4/projects/g%2Fp/issues?per_page=100&page=${number}`, {
          headers: { 'private-token': TOKEN },
          responseType: 'json',
        });
    });
    const skillList = await timeIt(20, () =>
      registry.execute('gitlab_issue', { action: 'list', instance: 'bench', project: 'g/p', limit: 1000 }),
    );
    console.log('\nCall cost against a local server (mean per call)');
    console.log(`  ${'operation'.padEnd(44)} ${'bare got'.padStart(10)} ${'skill'.padStart(10)} ${'ratio'.padStart(7)}`);
    const row = (name, base, value) =>
      console.log(
        `  ${name.padEnd(44)} ${pad(`${base.toFixed(2)} ms`, 10)} ${pad(`${value.toFixed(2)} ms`, 10)} ${pad((value / base).toFixed(2), 7)}`,
      );
    row('get one issue (instance and project given)', bare, skill);
    row('get one issue (instance from git remote)', bare, detected);
    row('list 1000 issues (10 pages of 100)', bareList, skillList);
  } finally {
    server.close();
    await rm(cwd, { recursive: true, force: true });
  }
}

definitionFigures();
coverageFigures();
await callFigures();
