import type { JsonObject } from '@nexus/core';
import { ACCESS_LEVEL_NAMES, accessLevel, accessLevelNames } from '../access-levels.js';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { day, detailText, listText, preview, shortSha } from '../format.js';
import { followUpFailed } from '../gitlab-api-error.js';
import type { GitLabRequest } from '../gitlab-client.js';
import { listOf, MAYBE_OBJECT, NOTHING, objectWith } from '../output-schema.js';
import { requireFields, setIfPresent } from '../request-body.js';
import { choice, DEFAULT_LIMIT, limit, text } from '../schema.js';
import { segment } from '../url-segments.js';

/** Arguments of `gitlab_tag`. */
export interface GitLabTagArguments extends GitLabArguments {
  name?: string;
  ref?: string;
  message?: string;
  release_description?: string;
  search?: string;
  order_by?: string;
  create_level?: string;
  limit?: number;
  release_name?: string;
}

interface Release {
  tag_name: string;
  name?: string | null;
  description?: string | null;
  released_at?: string;
  author?: { username: string };
  _links?: { self?: string };
}

interface Tag {
  name: string;
  message?: string | null;
  protected?: boolean;
  release?: { tag_name: string; description?: string | null } | null;
  commit?: { id: string; author_name?: string; created_at?: string; title?: string };
}

interface ProtectedTag {
  name: string;
  create_access_levels?: Array<{ access_level: number }>;
}

const releasePath = (context: ActionContext<GitLabTagArguments>) => `${context.base}/releases/${segment(context.args.name ?? '', 'name')}`;

const RELEASE = objectWith('tag_name');

/** `gitlab_tag`: tags, their releases, and protected tag patterns. */
export const gitlabTagSkill = defineGitLabSkill<GitLabTagArguments>({
  name: 'gitlab_tag',
  title: 'GitLab tags',
  description: 'GitLab tags, releases and protected tag patterns.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      name: text('Tag name (protect/unprotect: pattern like v*; releases: their tag)'),
      ref: text('create, create-release (new tag): branch or SHA'),
      message: text('create: annotation (annotated tag)'),
      release_description: text('create: also create a release with these notes; create-release, update-release: the notes'),
      release_name: text('create-release, update-release: release title (default: the tag)'),
      search: text(),
      order_by: choice(['name', 'updated', 'version']),
      create_level: choice(ACCESS_LEVEL_NAMES, 'protect (default maintainer)'),
      limit,
    },
  },
  actions: {
    list: {
      result: listOf('name'),
      async run(context) {
        const { search, order_by, limit: max } = context.args;
        const tags = await context.list<Tag>(`${context.base}/repository/tags`, { search, order_by }, max ?? DEFAULT_LIMIT);
        const line = (tag: Tag) =>
          `${tag.name}${tag.protected ? ' [protected]' : ''}${tag.release ? ' [release]' : ''} ${shortSha(tag.commit?.id)}`;
        return reply(listText('tags', tags, line), tags);
      },
    },
    get: {
      result: objectWith('name'),
      required: ['name'],
      async run(context) {
        const tag = await context.get<Tag>(`${context.base}/repository/tags/${segment(context.args.name ?? '', 'name')}`);
        const { commit, release } = tag;
        const output = detailText(tag.name, [
          ['Protected', tag.protected ? 'yes' : 'no'],
          ['Commit', commit ? `${shortSha(commit.id, 12)} by ${commit.author_name ?? '?'} on ${day(commit.created_at)}` : undefined],
          ['Title', commit?.title],
          ['Message', tag.message],
          ['Release', release ? `${release.tag_name}: ${preview(release.description, 200)}` : undefined],
        ]);
        return reply(output, tag);
      },
    },
    create: {
      result: objectWith('tag', 'release'),
      required: ['name', 'ref'],
      run(context) {
        const { name, ref, message, release_description } = context.args;
        const tagBody: JsonObject = { tag_name: name as string, ref: ref as string };
        if (message) tagBody.message = message;
        const requests: GitLabRequest[] = [{ method: 'POST', path: `${context.base}/repository/tags`, body: tagBody }];
        // Current GitLab no longer takes release notes on the tag; a release is its own resource.
        if (release_description)
          requests.push({
            method: 'POST',
            path: `${context.base}/releases`,
            body: { tag_name: name as string, description: release_description },
          });
        return context.change({
          requests,
          async perform() {
            const created = await context.client.request<Tag>(requests[0] as GitLabRequest, context.signal);
            const summary = `Created tag ${created.name} at ${shortSha(created.commit?.id)}`;
            if (!requests[1]) return reply(`${summary}.`, { tag: created, release: null });
            try {
              const release = await context.client.request<JsonObject>(requests[1], context.signal);
              return reply(`${summary} with a release.`, { tag: created, release });
            } catch (error) {
              throw followUpFailed(summary, 'creating its release', error, { tag: created, release: null });
            }
          },
        });
      },
    },
    delete: {
      result: NOTHING,
      required: ['name'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: `${context.base}/repository/tags/${segment(context.args.name ?? '', 'name')}` },
          () => `Deleted tag ${context.args.name}.`,
        ),
    },
    protect: {
      result: objectWith('name'),
      required: ['name'],
      run: (context) =>
        context.send<ProtectedTag>(
          {
            method: 'POST',
            path: `${context.base}/protected_tags`,
            body: { name: context.args.name as string, create_access_level: accessLevel(context.args.create_level) },
          },
          (rule) => `Protected tags matching ${rule.name}: create ${accessLevelNames(rule.create_access_levels)}.`,
        ),
    },
    unprotect: {
      result: NOTHING,
      required: ['name'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: `${context.base}/protected_tags/${segment(context.args.name ?? '', 'name')}` },
          () => `Removed protection from tags matching ${context.args.name}.`,
        ),
    },
    'list-releases': {
      result: listOf('tag_name'),
      async run(context) {
        const releases = await context.list<Release>(`${context.base}/releases`, {}, context.args.limit ?? DEFAULT_LIMIT);
        const line = (release: Release) =>
          `${release.tag_name}${release.name && release.name !== release.tag_name ? ` — ${release.name}` : ''} (${day(release.released_at)})`;
        return reply(listText('releases', releases, line), releases);
      },
    },
    'get-release': {
      result: RELEASE,
      required: ['name'],
      async run(context) {
        const release = await context.get<Release>(releasePath(context));
        const output = detailText(
          release.name || release.tag_name,
          [
            ['Tag', release.tag_name],
            ['Released', day(release.released_at)],
            ['Author', release.author ? `@${release.author.username}` : undefined],
            ['URL', release._links?.self],
          ],
          release.description || '(no notes)',
        );
        return reply(output, release);
      },
    },
    'create-release': {
      result: RELEASE,
      required: ['name'],
      run(context) {
        const { name, ref, release_name, release_description } = context.args;
        const body: JsonObject = { tag_name: name as string };
        setIfPresent(body, 'name', release_name);
        setIfPresent(body, 'description', release_description);
        setIfPresent(body, 'ref', ref);
        return context.send<Release>(
          { method: 'POST', path: `${context.base}/releases`, body },
          (release) => `Created release ${release.name || release.tag_name} for tag ${release.tag_name}.`,
        );
      },
    },
    'update-release': {
      result: RELEASE,
      required: ['name'],
      run(context) {
        const body: JsonObject = {};
        setIfPresent(body, 'name', context.args.release_name);
        setIfPresent(body, 'description', context.args.release_description);
        return context.send<Release>(
          { method: 'PUT', path: releasePath(context), body: requireFields(body) },
          (release) => `Updated release ${release.name || release.tag_name}.`,
        );
      },
    },
    'delete-release': {
      result: MAYBE_OBJECT,
      required: ['name'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: releasePath(context) },
          () => `Deleted the release of tag ${context.args.name} (the tag stays).`,
        ),
    },
    'list-protected': {
      result: listOf('name'),
      async run(context) {
        const rules = await context.list<ProtectedTag>(`${context.base}/protected_tags`, {}, context.args.limit ?? DEFAULT_LIMIT);
        return reply(
          listText('protected tag patterns', rules, (rule) => `${rule.name}: create ${accessLevelNames(rule.create_access_levels)}`),
          rules,
        );
      },
    },
  },
});
