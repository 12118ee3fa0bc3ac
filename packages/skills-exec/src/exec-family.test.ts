import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { type ConfirmationRequest, resolvePreset, ServiceContainer } from '@nexus/core';
import { isProcessAlive, waitForFileScript } from '@nexus/process/testing';
import { createTestAgent, type TestAgentOptions } from '@nexus/registry/testing';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashSafeSkill, execSkills, runPythonSkill, shellUnsafeSkill } from './index.js';

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir({ sub: { 'file.txt': 'inside\n' } });
});
afterEach(async () => {
  await dir.cleanup();
});

/** An agent using the exec family, at `yolo` unless said otherwise. */
function createAgent(options: Omit<TestAgentOptions, 'cwd' | 'families'> = {}) {
  return createTestAgent({ cwd: dir.path, preset: 'yolo', families: [execSkills], ...options });
}

describe('execSkills family', () => {
  it('holds bash_safe, shell_UNSAFE and run_python, all trusted and up', () => {
    expect(execSkills.name).toBe('exec');
    expect(execSkills.skills.map((spec) => spec.name)).toEqual(['bash_safe', 'shell_UNSAFE', 'run_python']);
    for (const spec of execSkills.skills) expect(spec).toMatchObject({ minimumLevel: 'trusted', readOnly: false, destructive: true });
    const { registry } = createAgent();
    expect(registry.getDefinitionsForPermissions(resolvePreset('sandboxed', { cwd: dir.path }))).toEqual([]);
    expect(registry.getDefinitionsForPermissions(resolvePreset('trusted', { cwd: dir.path }))).toHaveLength(3);
    const [bash] = registry.getDefinitions({ format: 'anthropic' });
    expect(bash?.input_schema).toMatchObject({
      required: ['command'],
      properties: { command: { type: 'string' }, timeout: { default: 30 }, cwd: { type: 'string' } },
    });
  });
});

describe('permission levels', () => {
  it.each(execSkills.skills.map((spec) => spec.name))(
    '%s refuses to run at sandboxed, even when called without the registry or without a policy',
    async (name) => {
      const marker = dir.join('ran');
      const args = name === 'run_python' ? { code: `open(${JSON.stringify(marker)}, 'w')` } : { command: `touch ${marker}` };
      const agent = createAgent({ preset: 'sandboxed' });
      expect(await agent.call(name, args)).toMatchObject({ kind: 'forbidden' });
      const spec = execSkills.skills.find((candidate) => candidate.name === name);
      expect(await spec?.factory(agent.services).execute(args)).toMatchObject({
        kind: 'forbidden',
        error: `Tool "${name}" needs the "trusted" permission level or higher; this agent is "sandboxed".`,
      });
      const noPolicy = await spec?.factory(new ServiceContainer().register('cwd', dir.path)).execute(args);
      expect(noPolicy).toMatchObject({
        kind: 'forbidden',
        error: `Tool "${name}" needs the "trusted" permission level or higher; no permission policy is registered, which counts as "sandboxed".`,
      });
      expect(existsSync(marker)).toBe(false);
    },
  );

  it('asks for confirmation at trusted and runs nothing when refused or when no confirmer is registered', async () => {
    const refusing = createAgent({ preset: 'trusted', confirm: false });
    const refused = await refusing.call('bash_safe', { command: `touch ${dir.join('ran')}` });
    expect(refused).toMatchObject({ kind: 'forbidden', error: 'bash_safe needs confirmation at the trusted level, and it was not given.' });
    expect(refusing.confirmations).toEqual([
      { tool: 'bash_safe', action: `run: touch ${dir.join('ran')}`, detail: `working directory: ${dir.path}` },
    ]);
    expect(await createAgent({ preset: 'trusted' }).call('shell_UNSAFE', { command: `touch ${dir.join('ran')}` })).toMatchObject({
      kind: 'forbidden',
    });
    expect(existsSync(dir.join('ran'))).toBe(false);

    const approving = createAgent({ preset: 'trusted', confirm: true });
    expect(await approving.call('bash_safe', { command: `touch ${dir.join('ran')}` })).toMatchObject({ success: true });
    expect(existsSync(dir.join('ran'))).toBe(true);
  });

  it("asks the call's own confirm instead of the confirm service", async () => {
    const asked: ConfirmationRequest[] = [];
    const refusingService = createAgent({ preset: 'trusted', confirm: false });
    const approved = await refusingService.call(
      'shell_UNSAFE',
      { command: `touch ${dir.join('ran')}` },
      { confirm: (request) => (asked.push(request), true) },
    );
    expect(approved).toMatchObject({ success: true });
    expect(asked).toEqual([
      { tool: 'shell_UNSAFE', action: `run in a shell: touch ${dir.join('ran')}`, detail: `working directory: ${dir.path}` },
    ]);
    expect(refusingService.confirmations).toEqual([]);

    const approvingService = createAgent({ preset: 'trusted', confirm: true });
    const refused = await approvingService.call('run_python', { code: 'print(1)' }, { confirm: () => false });
    expect(refused).toMatchObject({
      kind: 'forbidden',
      error: 'run_python needs confirmation at the trusted level, and it was not given.',
    });
    expect(approvingService.confirmations).toEqual([]);
  });

  it('runs without asking at yolo', async () => {
    const agent = createAgent({ preset: 'yolo', confirm: false });
    expect(await agent.call('bash_safe', { command: 'echo hello' })).toMatchObject({ success: true, output: 'hello' });
    expect(agent.confirmations).toEqual([]);
  });
});

describe('bash_safe', () => {
  it('returns stdout, stderr and the structured run', async () => {
    const result = await createAgent().call('bash_safe', { command: `sh -c 'echo out; echo err >&2'` });
    expect(result.success).toBe(true);
    expect(result.output).toBe('out\n[stderr]\nerr');
    expect(result.data).toMatchObject({
      stdout: 'out\n',
      stderr: 'err\n',
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      truncated: false,
    });
  });

  it('reports a non-zero exit as a failure that carries the output', async () => {
    const result = await createAgent().call('bash_safe', { command: 'ls no-such-file' });
    expect(result).toMatchObject({ success: false, kind: 'execution_failed', data: { exitCode: 2 } });
    expect(result.error).toMatch(/^bash_safe: the command failed\.\n\[stderr\]\n.*no-such-file.*\n\[exit code 2\]$/s);
  });

  it.each([
    'touch {m}; echo',
    'echo && touch {m}',
    'false || touch {m}',
    'touch {m} &',
    'echo x | tee {m}',
    'echo x > {m}',
    'echo x >> {m}',
    'echo $(touch {m})',
    'echo "$(touch {m})"',
    'echo `touch {m}`',
    'echo ${x:=$(touch {m})}',
    '(touch {m})',
    'echo\ntouch {m}',
    'echo\rtouch {m}',
    'cat <(touch {m})',
    'X=1 touch {m}',
  ])('refuses %j with invalid_input and runs nothing', async (template) => {
    const marker = dir.join('pwned');
    const result = await createAgent().call('bash_safe', { command: template.replaceAll('{m}', marker) });
    expect(result).toMatchObject({ success: false, kind: 'invalid_input' });
    expect(result.error).toContain('`command`');
    expect(existsSync(marker)).toBe(false);
  });

  it('passes quoted shell syntax to the program as plain arguments', async () => {
    const marker = dir.join('pwned');
    const result = await createAgent().call('bash_safe', {
      command: `printf '%s|' 'a; touch ${marker}' "b && c" '$(id)' "-n" '--help'`,
    });
    expect(result.output).toBe(`a; touch ${marker}|b && c|$(id)|-n|--help|`);
    expect(existsSync(marker)).toBe(false);
  });

  it('does not expand globs, ~ or variables', async () => {
    const result = await createAgent().call('bash_safe', { command: 'printf "%s " *.txt ~ {a,b}' });
    expect(result.output).toBe('*.txt ~ {a,b} ');
  });

  it('says which program is missing', async () => {
    expect(await createAgent().call('bash_safe', { command: 'nexus-missing-program --x' })).toMatchObject({
      kind: 'not_found',
      error: expect.stringContaining('nexus-missing-program'),
    });
  });
});

describe('shell_UNSAFE', () => {
  it('runs a full shell command line', async () => {
    const result = await createAgent().call('shell_UNSAFE', { command: 'echo one two three | wc -w; cd sub && cat file.txt' });
    expect(result.output).toBe('3\ninside');
  });

  it('reports the exit code of a failing command', async () => {
    const result = await createAgent().call('shell_UNSAFE', { command: 'echo partial; exit 7' });
    expect(result).toMatchObject({ kind: 'execution_failed', data: { exitCode: 7, stdout: 'partial\n' } });
    expect(result.error).toContain('[exit code 7]');
  });
});

describe('run_python', () => {
  it('runs multi-line code with any quotes through stdin', async () => {
    const code = 'import sys\nname = "it\'s \\"quoted\\""\nprint(name)\nprint(sys.argv)';
    const result = await createAgent().call('run_python', { code });
    expect(result.output).toBe(`it's "quoted"\n['-']`);
  });

  it('reports an exception as a failure with the traceback', async () => {
    const result = await createAgent().call('run_python', { code: 'raise ValueError("boom")' });
    expect(result).toMatchObject({ kind: 'execution_failed', data: { exitCode: 1 } });
    expect(result.error).toContain('ValueError: boom');
  });

  it('uses the pythonExecutable service when registered', async () => {
    const agent = createAgent({ services: { pythonExecutable: 'nexus-no-such-python' } });
    expect(await agent.call('run_python', { code: 'print(1)' })).toMatchObject({
      kind: 'not_found',
      error: expect.stringContaining('nexus-no-such-python'),
    });
  });
});

describe('parameters', () => {
  it.each([
    ['bash_safe', {}, 'command'],
    ['bash_safe', { command: { text: 'ls' } }, 'command'],
    ['bash_safe', { command: '' }, 'command'],
    ['bash_safe', { command: 'ls', timeout: 'soon' }, 'timeout'],
    ['bash_safe', { command: 'ls', timeout: 2.5 }, 'timeout'],
    ['bash_safe', { command: 'ls', cwd: { path: '/' } }, 'cwd'],
    ['bash_safe', { command: 'ls', extra: true }, 'extra'],
    ['shell_UNSAFE', { command: ['ls'] }, 'command'],
    ['run_python', { command: 'print(1)' }, 'code'],
    ['run_python', { code: null }, 'code'],
  ])('%s %j is invalid_input naming %s', async (name, args, parameter) => {
    const result = await createAgent().call(name, args);
    expect(result).toMatchObject({ kind: 'invalid_input', data: { parameters: expect.arrayContaining([parameter]) } });
    expect(result.error).toContain(`\`${parameter}\``);
  });

  it('names the parameter when called without the registry too', async () => {
    const skill = bashSafeSkill.factory(createAgent().services);
    expect(await skill.execute({ command: 7 })).toMatchObject({ kind: 'invalid_input', error: expect.stringContaining('`command`') });
    expect(await skill.execute({ command: 'ls', timeout: 'x' })).toMatchObject({
      kind: 'invalid_input',
      error: expect.stringContaining('`timeout`'),
    });
    expect(await skill.execute({ command: 'ls', cwd: 3 })).toMatchObject({
      kind: 'invalid_input',
      error: expect.stringContaining('`cwd`'),
    });
    expect(await runPythonSkill.factory(createAgent().services).execute({})).toMatchObject({
      kind: 'invalid_input',
      error: expect.stringContaining('`code`'),
    });
  });

  it('clamps a timeout below 1 s to 1 s', async () => {
    const result = await createAgent().call('bash_safe', { command: 'sleep 20', timeout: 0 });
    expect(result).toMatchObject({ kind: 'timeout', data: { timedOut: true } });
    expect(result.error).toContain('did not finish within 1 s');
  });

  it('runs in cwd and refuses one outside the sandbox', async () => {
    const agent = createAgent();
    expect(await agent.call('bash_safe', { command: 'cat file.txt', cwd: 'sub' })).toMatchObject({ output: 'inside' });
    expect(await agent.call('bash_safe', { command: 'ls', cwd: 'missing' })).toMatchObject({ kind: 'not_found' });
    expect(await agent.call('bash_safe', { command: 'ls', cwd: 'sub/file.txt' })).toMatchObject({ kind: 'invalid_input' });
    const confined = createAgent({
      preset: 'trusted',
      confirm: true,
      tools: { bash_safe: { allowedPaths: [dir.join('sub')] } },
      blockedPaths: [dir.join('blocked')],
    });
    for (const cwd of ['/', '..', dir.path, `${dir.join('sub')}-evil`]) {
      expect(await confined.call('bash_safe', { command: 'ls', cwd }), cwd).toMatchObject({ kind: 'forbidden' });
    }
    expect(await confined.call('bash_safe', { command: 'ls', cwd: 'sub' })).toMatchObject({ success: true });
    expect(await confined.call('shell_UNSAFE', { command: 'ls', cwd: 'blocked' })).toMatchObject({ kind: 'forbidden' });
  });
});

describe('attacks through the skills', () => {
  const secrets = {
    ANTHROPIC_API_KEY: 'sk-ant-planted',
    GITHUB_TOKEN: 'ghp_planted',
    AWS_SECRET_ACCESS_KEY: 'aws-planted',
    PGPASSWORD: 'pg-planted',
  };
  beforeEach(() => {
    Object.assign(process.env, secrets);
  });
  afterEach(() => {
    for (const name of Object.keys(secrets)) delete process.env[name];
  });

  it('keeps secrets out of every child: env, /proc/self/environ, os.environ', async () => {
    const agent = createAgent();
    const shell = await agent.call('shell_UNSAFE', { command: 'env; tr "\\0" "\\n" < /proc/self/environ' });
    const bash = await agent.call('bash_safe', { command: 'cat /proc/self/environ' });
    const python = await agent.call('run_python', {
      code: 'import os\nprint(dict(os.environ))\nprint(open("/proc/self/environ").read())',
    });
    for (const result of [shell, bash, python]) {
      expect(result.success).toBe(true);
      for (const secret of Object.values(secrets)) expect(result.output).not.toContain(secret);
    }
  });

  it('leaves no grandchild alive after a timeout (setsid, nohup, TERM ignored)', async () => {
    const pids = dir.join('pids');
    const go = dir.join('go');
    const child = (name: string) => `echo $$ >> ${pids}; ${waitForFileScript(go)} && touch ${dir.join(`late-${name}`)}`;
    const command = [
      `setsid sh -c '${child('setsid')}' &`,
      `nohup sh -c '${child('nohup')}' >/dev/null 2>&1 &`,
      `sh -c 'trap "" TERM; ${child('trap')}' &`,
      `until [ "$(wc -l < ${pids})" -ge 3 ] 2>/dev/null; do sleep 0.05; done`,
      'sleep 60',
    ].join('\n');
    const result = await createAgent().call('shell_UNSAFE', { command, timeout: 2 });
    expect(result).toMatchObject({ kind: 'timeout' });
    const recorded = readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
    expect(recorded).toHaveLength(3);
    expect(recorded.filter(isProcessAlive)).toEqual([]);
    writeFileSync(go, '');
    await delay(1_000);
    expect(['setsid', 'nohup', 'trap'].filter((name) => existsSync(dir.join(`late-${name}`)))).toEqual([]);
  });

  it('caps a flood of output', async () => {
    const result = await createAgent().call('bash_safe', { command: 'yes', timeout: 1 });
    expect(result).toMatchObject({ kind: 'timeout', data: { truncated: true, timedOut: true } });
    expect(result.error.length).toBeLessThan(1024 * 1024 + 500);
    expect(result.error).toContain('[output truncated: showing the first 1.0 MiB of');
  });

  it('stops the command when the call is cancelled', async () => {
    const controller = new AbortController();
    const pidFile = dir.join('pid');
    const pending = createAgent().call('shell_UNSAFE', { command: `echo $$ > ${pidFile}; exec sleep 60` }, { signal: controller.signal });
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') await delay(20);
    controller.abort();
    expect(await pending).toMatchObject({ kind: 'cancelled' });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    for (let attempt = 0; attempt < 100 && isProcessAlive(pid); attempt++) await delay(50);
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('cancels through the skill context too', async () => {
    const skill = shellUnsafeSkill.factory(createAgent().services);
    const result = await skill.execute({ command: 'sleep 60' }, { signal: AbortSignal.timeout(300) });
    expect(result).toMatchObject({ kind: 'cancelled', data: { cancelled: true } });
  });
});
