import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AuditRecord } from '@nexus/registry';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLogWriter, type AuditSettings, readAuditLog } from './audit-log.js';

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir({ state: {} });
});
afterEach(() => dir.cleanup());

const record = (writer: string, index: number): AuditRecord => ({
  time: new Date().toISOString(),
  tool: 'echo',
  arguments: { writer, index },
  decision: 'allow',
  decidedBy: 'preset',
  policyDigest: '0'.repeat(64),
  result: 'ok',
  durationMs: 1,
});

describe('two writers of one audit log (as two Nexus processes would be)', () => {
  it('append whole lines without a lock between rotations, and lose none while one rotates under the other', async () => {
    const settings: AuditSettings = { enabled: true, file: dir.join('state', 'audit.jsonl'), maxBytes: 4_000, keep: 1_000 };
    const writers = [new AuditLogWriter(settings, Promise.resolve('none')), new AuditLogWriter(settings, Promise.resolve('none'))];
    for (let index = 0; index < 300; index++) {
      for (const [which, writer] of writers.entries()) writer.sink(record(`w${which}`, index));
      if (index % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writers.map((writer) => writer.flush()));

    const files = (await readdir(dir.join('state'))).filter((name) => name.startsWith('audit.jsonl'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = await readFile(dir.join('state', file), 'utf8');
      for (const line of text.trimEnd().split('\n')) expect(() => JSON.parse(line), `${file}: ${line}`).not.toThrow();
    }
    const read: AuditRecord[] = [];
    for await (const each of readAuditLog(settings)) read.push(each);
    const seen = read.map((each) => JSON.stringify(each.arguments));
    expect(new Set(seen).size).toBe(600);
  });

  it('keeps no old file with keep 0: the log is emptied in place, and the other writer goes on writing into it', async () => {
    const settings: AuditSettings = { enabled: true, file: dir.join('state', 'audit.jsonl'), maxBytes: 2_000, keep: 0 };
    const [first, second] = [new AuditLogWriter(settings, Promise.resolve('none')), new AuditLogWriter(settings, Promise.resolve('none'))];
    for (let index = 0; index < 40; index++) first?.sink(record('first', index));
    await first?.flush();
    second?.sink(record('second', 0));
    await second?.flush();
    for (let index = 40; index < 80; index++) first?.sink(record('first', index));
    await first?.flush();
    second?.sink(record('second', 1));
    await second?.flush();

    expect(await readdir(dir.join('state'))).toEqual(['audit.jsonl']);
    const read: AuditRecord[] = [];
    for await (const each of readAuditLog(settings)) read.push(each);
    expect(read.at(-1)?.arguments).toEqual({ writer: 'second', index: 1 });
  });
});

describe('one writer', () => {
  it('writes the records queued in a turn of the event loop at its end, with no flush', async () => {
    const settings: AuditSettings = { enabled: true, file: dir.join('state', 'audit.jsonl'), maxBytes: 1_000_000, keep: 1 };
    const writer = new AuditLogWriter(settings, Promise.resolve('none'));
    for (let index = 0; index < 3; index++) writer.sink(record('w', index));
    await nextTurn();
    const lines = (await readFile(settings.file, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).arguments.index)).toEqual([0, 1, 2]);
  });
});

describe('an audit log path replaced by a symlink', () => {
  it('is never followed: the file it points to stays as it was, and the writer goes on once the log is a file again', async () => {
    const settings: AuditSettings = { enabled: true, file: dir.join('state', 'audit.jsonl'), maxBytes: 1_000_000, keep: 1 };
    const writer = new AuditLogWriter(settings, Promise.resolve('none'));
    writer.sink(record('w', 0));
    await writer.flush();
    const target = dir.join('state', 'elsewhere.txt');
    await writeFile(target, 'untouched\n');
    await rm(settings.file);
    await symlink(target, settings.file);

    writer.sink(record('w', 1));
    await writer.flush();
    expect(await readFile(target, 'utf8')).toBe('untouched\n');

    await rm(settings.file);
    writer.sink(record('w', 2));
    await writer.flush();
    expect(
      (await readFile(settings.file, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).arguments.index),
    ).toEqual([2]);
  });
});
