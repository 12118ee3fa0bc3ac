import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ConfirmationRequest, type PermissionLevel, resolvePreset, ServiceContainer } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { gitSkills } from './index.js';

/** Runs real git for test set-up, isolated from the host's configuration. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_DATE: '2024-01-02T03:04:05Z',
      GIT_COMMITTER_DATE: '2024-01-02T03:04:05Z',
    },
  });
}

/** Creates a repository with one commit of `files`. */
export function createRepository(path: string, files: Record<string, string> = { 'a.txt': 'hello\n' }): string {
  mkdirSync(path, { recursive: true });
  git(path, 'init', '-q', '-b', 'main');
  git(path, 'config', 'user.name', 'Test User');
  git(path, 'config', 'user.email', 'test@example.com');
  for (const [name, content] of Object.entries(files)) writeFileSync(join(path, name), content);
  git(path, 'add', '.');
  git(path, 'commit', '-q', '-m', 'Initial commit', '-m', 'With a body line.');
  return path;
}

/** A registry with the git family, for an agent working in `cwd` at `level`. */
export function gitRegistry(cwd: string, level: PermissionLevel, confirm?: (request: ConfirmationRequest) => boolean): SkillRegistry {
  const services = new ServiceContainer().register('cwd', cwd).register('permissions', resolvePreset(level, { cwd }));
  if (confirm) services.register('confirm', confirm);
  return new SkillRegistry(services).use(gitSkills);
}

/** Writes an executable shell script. */
export function writeScript(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** Names of the marker files in `directory` (each hostile program leaves one). */
export function markers(directory: string): string[] {
  return existsSync(directory) ? readdirSync(directory).sort() : [];
}
