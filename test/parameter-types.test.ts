// The registry's type rule seen through real skills: a wrong type or null never reaches a file or
// a program. A repository check, because it spans the registry and two families the registry must
// not depend on (DESIGN §1).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter } from 'node:path';
import { createTestAgent } from '@nexus/registry/testing';
import { execSkills } from '@nexus/skills-exec';
import { fsSkills } from '@nexus/skills-fs';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir({ 'notes.txt': 'first\nsecond\nthird\n', '42': 'the file named 42\n' });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await dir.cleanup();
});

const fsAgent = () => createTestAgent({ cwd: dir.path, preset: 'trusted', families: [fsSkills] });

describe('fs skills through the registry', () => {
  it('write_file { content: null } leaves the file untouched and names `content`', async () => {
    const agent = fsAgent();
    expect(await agent.call('read_file', { path: 'notes.txt' })).toMatchObject({ success: true });
    const result = await agent.call('write_file', { path: 'notes.txt', content: null });
    expect(result).toMatchObject({
      success: false,
      kind: 'invalid_input',
      error: 'Parameter `content` must be a string, got null.',
      data: { parameters: ['content'] },
    });
    expect(readFileSync(dir.join('notes.txt'), 'utf8')).toBe('first\nsecond\nthird\n');
  });

  it('read_file { path: 42 } is refused, not read as a file named "42"', async () => {
    const result = await fsAgent().call('read_file', { path: 42 });
    expect(result).toMatchObject({
      kind: 'invalid_input',
      error: 'Parameter `path` must be a string, got number 42.',
      data: { parameters: ['path'] },
    });
    expect(result.output).not.toContain('the file named 42');
  });

  it('read_file { offset: true } is refused, not read from line 1', async () => {
    const result = await fsAgent().call('read_file', { path: 'notes.txt', offset: true });
    expect(result).toMatchObject({ kind: 'invalid_input', data: { parameters: ['offset'] } });
    expect(result.error).toBe('Parameter `offset` must be an integer, got boolean true.');
  });

  it('still accepts "10" for an integer and "true" for a boolean', async () => {
    const agent = fsAgent();
    const lines = await agent.call('read_file', { path: 'notes.txt', offset: '2', limit: '1' });
    expect(lines).toMatchObject({ success: true });
    expect(lines.output).toContain('second');
    expect(lines.output).not.toMatch(/first|third/);
    const listing = await agent.call('list_directory', { path: '.', all: 'true' });
    expect(listing).toMatchObject({ success: true });
    expect(listing.output).toContain('notes.txt');
  });
});

describe('bash_safe through the registry', () => {
  /** A program named `42` on PATH that leaves a marker when it runs. */
  function installProgram42(): string {
    const bin = dir.join('bin');
    const marker = dir.join('ran-42');
    mkdirSync(bin);
    writeFileSync(`${bin}/42`, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(`${bin}/42`, 0o755);
    vi.stubEnv('PATH', `${bin}${delimiter}${process.env.PATH ?? ''}`);
    return marker;
  }

  it('{ command: 42 } runs nothing and names `command`', async () => {
    const marker = installProgram42();
    const agent = createTestAgent({ cwd: dir.path, preset: 'trusted', families: [execSkills], confirm: true });
    const result = await agent.call('bash_safe', { command: 42 });
    expect(result).toMatchObject({
      kind: 'invalid_input',
      error: 'Parameter `command` must be a string, got number 42.',
      data: { parameters: ['command'] },
    });
    expect(agent.confirmations).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    const control = await agent.call('bash_safe', { command: '42', timeout: '10' });
    expect(control).toMatchObject({ success: true });
    expect(existsSync(marker)).toBe(true);
  });
});
