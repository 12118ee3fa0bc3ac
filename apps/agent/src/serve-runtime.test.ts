import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runNexusIn } from './testing/memory-io-fixture.js';

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir({ project: {}, config: {}, state: {} });
});
afterEach(() => dir.cleanup());

const serve = (args: string[]) => runNexusIn(dir, ['serve', '--port', '0', ...args]);

describe('nexus serve --runtime', () => {
  it.each([
    [['--runtime', 'cloud'], 'Expected --runtime to be local or restate, got "cloud".'],
    [['--restate', 'http://127.0.0.1:8080'], '--restate is for --runtime restate.'],
    [['--runtime', 'restate', '--restate-admin', 'http://127.0.0.1:9070'], '--runtime restate needs --restate <URL>.'],
    [
      ['--runtime', 'restate', '--restate', 'ftp://host', '--restate-admin', 'http://127.0.0.1:9070'],
      'Expected --restate to be an http(s) URL, got "ftp://host".',
    ],
  ])('refuses %j as a usage error (status 2)', async (args, message) => {
    const { code, stderr } = await serve(args);

    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
