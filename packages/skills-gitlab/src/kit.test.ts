import type { SkillFamily } from '@nexus/core';
import { createTestAgent, outputSchemaProblems } from '@nexus/registry/testing';
import { type GitLabStandIn, startGitLabStandIn, type TestDir, testdir } from '@nexus/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineGitLabSkill, type GitLabArguments, listOf, objectWith, reply, segment } from './kit.js';

interface SnippetArguments extends GitLabArguments {
  slug?: string;
  title?: string;
  content?: string;
}

interface Snippet {
  slug: string;
  title: string;
  content?: string;
}

// A skill a plugin author could write: GitLab's project snippets API, which the family does not cover.
const snippetSkill = defineGitLabSkill<SnippetArguments>({
  name: 'gitlab_snippet',
  description: 'GitLab project snippets.',
  scope: 'project',
  parameters: { type: 'object', properties: { slug: { type: 'string' }, title: { type: 'string' }, content: { type: 'string' } } },
  actions: {
    list: {
      result: listOf('slug', 'title'),
      async run(context) {
        const pages = await context.list<Snippet>(`${context.base}/snippets`);
        return reply(pages.map((page) => page.slug).join('\n'), pages);
      },
    },
    get: {
      required: ['slug'],
      result: objectWith('slug', 'title'),
      async run(context) {
        const page = await context.get<Snippet>(`${context.base}/snippets/${segment(context.args.slug ?? '', 'slug')}`);
        return reply(`# ${page.title}\n${page.content ?? ''}`, page);
      },
    },
    create: {
      required: ['title', 'content'],
      result: objectWith('slug'),
      run: (context) =>
        context.send<Snippet>(
          {
            method: 'POST',
            path: `${context.base}/snippets`,
            body: { title: context.args.title ?? '', content: context.args.content ?? '' },
          },
          (page) => `Created snippet ${page.slug}.`,
        ),
    },
  },
});
const snippetFamily: SkillFamily = { name: 'snippets', skills: [snippetSkill] };

let server: GitLabStandIn;
let dir: TestDir;
beforeAll(async () => {
  server = await startGitLabStandIn();
  dir = await testdir();
});
afterAll(async () => {
  await server.close();
  await dir.cleanup();
});
beforeEach(() => {
  server.reset();
  server.route('GET', '/projects/:project/snippets', () => ({ paginated: [{ slug: 'home', title: 'Home' }] }));
  server.route('GET', '/projects/:project/snippets/:slug', (request) => ({
    slug: request.params.slug,
    title: 'Home',
    content: `token ${server.token}`,
  }));
  server.route('POST', '/projects/:project/snippets', (request) => ({ ...(request.body as object), slug: 'notes' }));
});

function agent(preset: 'sandboxed' | 'trusted', confirm?: boolean) {
  return createTestAgent({
    cwd: dir.path,
    preset,
    families: [snippetFamily],
    ...(confirm === undefined ? {} : { confirm }),
    services: { gitlab: { instances: { work: { url: server.url, token: server.token } } } },
  });
}

describe('a skill written with the kit', () => {
  it('gets the schema, description and level of the built-in skills', () => {
    expect(snippetSkill.minimumLevel).toBe('trusted');
    expect(snippetSkill.description).toBe('GitLab project snippets. Actions: list, get(slug), create(title,content).');
    expect(Object.keys(snippetSkill.parameters.properties ?? {})).toEqual([
      'action',
      'project',
      'slug',
      'title',
      'content',
      'instance',
      'dry_run',
    ]);
  });

  it('reads without asking and masks the token in what it returns', async () => {
    const { call, confirmations } = agent('trusted', false);
    expect((await call('gitlab_snippet', { action: 'list', project: 'group/project' })).output).toBe('home');
    const page = await call('gitlab_snippet', { action: 'get', project: 'group/project', slug: '../../users' });
    expect(server.requests.at(-1)?.path).toBe('/projects/group%2Fproject/snippets/..%2F..%2Fusers');
    expect(page.output).toBe('# Home\ntoken ****');
    expect(JSON.stringify(page)).not.toContain(server.token);
    expect(confirmations).toEqual([]);
  });

  it('asks before a change, sends nothing when refused, and offers dry_run', async () => {
    const create = { action: 'create', project: 'group/project', title: 'Notes', content: 'x' };
    const refusing = agent('trusted', false);
    expect((await refusing.call('gitlab_snippet', create)).kind).toBe('forbidden');
    expect(refusing.confirmations.map((request) => request.detail)).toEqual([
      `POST ${server.url}/api/v4/projects/group%2Fproject/snippets {"title":"Notes","content":"x"}`,
    ]);
    expect((await refusing.call('gitlab_snippet', { ...create, dry_run: true })).data).toMatchObject({ dry_run: true });
    expect(server.writes()).toEqual([]);
    expect((await agent('trusted', true).call('gitlab_snippet', create)).output).toBe('Created snippet notes.');
    expect(server.writes()).toHaveLength(1);
  });

  it('returns the action and its answer (or its dry-run plan) as data that the outputSchema built from each action’s result describes', async () => {
    const { call, registry } = agent('trusted', true);
    const calls = [
      { action: 'list', project: 'group/project' },
      { action: 'get', project: 'group/project', slug: 'home' },
      { action: 'create', project: 'group/project', title: 'Notes', content: 'x', dry_run: true },
      { action: 'create', project: 'group/project', title: 'Notes', content: 'x' },
    ];
    for (const args of calls)
      expect(await outputSchemaProblems(registry, 'gitlab_snippet', await call('gitlab_snippet', args))).toEqual([]);
    expect((await call('gitlab_snippet', calls[0] as Record<string, unknown>)).data).toEqual({
      action: 'list',
      result: [{ slug: 'home', title: 'Home' }],
    });
  });

  it('is refused below trusted before any request', async () => {
    const result = await agent('sandboxed').call('gitlab_snippet', { action: 'list', project: 'group/project' });
    expect(result.kind).toBe('forbidden');
    expect(server.requests).toEqual([]);
  });
});
