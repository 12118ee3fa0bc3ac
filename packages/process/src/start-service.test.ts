import { once } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startService } from './index.js';
import { isProcessAlive, processesWithArgument } from './testing.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('startService', () => {
  it('talks over pipes, with the sanitised environment plus its own variables only', async () => {
    vi.stubEnv('NEXUS_PLANTED_API_KEY', 'planted-secret');
    vi.stubEnv('NEXUS_PLANTED_PLAIN', 'not passed either');
    const service = await startService('sh', ['-c', 'read line; echo "got $line"; env'], { env: { GREETING: 'hello' } });
    service.stdin.write('ping\n');
    const chunks: Buffer[] = [];
    service.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    await service.closed;
    const printed = Buffer.concat(chunks).toString();
    expect(printed).toContain('got ping');
    expect(printed).toContain('GREETING=hello');
    expect(printed).not.toContain('planted-secret');
    expect(printed).not.toContain('NEXUS_PLANTED_PLAIN');
  });

  it('stop() ends the whole group, a grandchild that ignores SIGTERM included', async () => {
    const marker = `${Date.now()}.4242`;
    const service = await startService('sh', ['-c', `sh -c 'trap "" TERM; sleep ${marker}' & trap "" TERM; echo started; wait`], {
      killGraceMs: 200,
    });
    await once(service.stdout, 'data');
    const grandchild = await vi.waitFor(() => {
      const [pid] = processesWithArgument(marker);
      if (pid === undefined) throw new Error('not started yet');
      return pid;
    });
    await service.stop();
    await vi.waitFor(() => expect(isProcessAlive(grandchild) || isProcessAlive(service.pid)).toBe(false));
  });

  it('rejects when the program cannot start', async () => {
    await expect(startService('/nonexistent/program', [])).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
