import type { JsonObject } from '@nexus/core';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { detailText, listText } from '../format.js';
import { listOf, NOTHING, objectWith } from '../output-schema.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { choice, text } from '../schema.js';
import { segment } from '../url-segments.js';

/** Arguments of `gitlab_wiki`. */
export interface GitLabWikiArguments extends GitLabArguments {
  slug?: string;
  title?: string;
  content?: string;
  format?: string;
}

interface WikiPage {
  slug: string;
  title: string;
  format?: string;
  content?: string;
}

const pagePath = (context: ActionContext<GitLabWikiArguments>) => `${context.base}/wikis/${segment(context.args.slug ?? '', 'slug')}`;

function pageFields(args: GitLabWikiArguments): JsonObject {
  const body: JsonObject = {};
  setIfPresent(body, 'title', args.title);
  setIfPresent(body, 'content', args.content);
  setIfPresent(body, 'format', args.format);
  return body;
}

const WIKI = objectWith('slug', 'title');

/** `gitlab_wiki`: project wiki pages. */
export const gitlabWikiSkill = defineGitLabSkill<GitLabWikiArguments>({
  name: 'gitlab_wiki',
  title: 'GitLab wikis',
  description: 'GitLab project wiki pages.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      slug: text('Page slug, e.g. guides/setup (as listed)'),
      title: text(),
      content: text(),
      format: choice(['markdown', 'rdoc', 'asciidoc', 'org'], 'default markdown'),
    },
  },
  actions: {
    list: {
      result: listOf('slug', 'title'),
      async run(context) {
        const pages = await context.list<WikiPage>(`${context.base}/wikis`, {}, 1000);
        return reply(
          listText('wiki pages', pages, (page) => `${page.slug} — ${page.title}`),
          pages,
        );
      },
    },
    get: {
      result: WIKI,
      required: ['slug'],
      async run(context) {
        const page = await context.get<WikiPage>(pagePath(context));
        return reply(
          detailText(
            page.title,
            [
              ['Slug', page.slug],
              ['Format', page.format],
            ],
            page.content ?? '',
          ),
          page,
        );
      },
    },
    create: {
      result: WIKI,
      required: ['title', 'content'],
      run: (context) =>
        context.send<WikiPage>(
          { method: 'POST', path: `${context.base}/wikis`, body: pageFields(context.args) },
          (page) => `Created wiki page ${page.slug}.`,
        ),
    },
    update: {
      result: WIKI,
      required: ['slug'],
      run: (context) =>
        context.send<WikiPage>(
          { method: 'PUT', path: pagePath(context), body: requireFields(pageFields(context.args)) },
          (page) => `Updated wiki page ${page.slug}.`,
        ),
    },
    delete: {
      result: NOTHING,
      required: ['slug'],
      run: (context) => context.send({ method: 'DELETE', path: pagePath(context) }, () => `Deleted wiki page ${context.args.slug}.`),
    },
  },
});
