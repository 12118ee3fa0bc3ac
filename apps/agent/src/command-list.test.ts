import { readdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './command-list.js';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';

async function run(args: string[]) {
  const memory = memoryIo({ cwd: fileURLToPath(new URL('.', import.meta.url)), configHome: '/nonexistent/nexus-config' });
  const code = await runCli(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

const names = COMMANDS.map((command) => command.name);

describe('a command is one module in commands/', () => {
  it('every module in commands/ is a command of the list, and every command of the list a module', async () => {
    const files = await readdir(new URL('./commands/', import.meta.url));
    const modules = files.filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).map((file) => basename(file, '.ts'));
    expect([...names].sort()).toEqual(modules.sort());
  });

  it.each(names)('`nexus %s --help` and `nexus help %s` print the help its module declares', async (name) => {
    const command = COMMANDS.find((candidate) => candidate.name === name)!;
    const expected = `${command.help({ cliPath: '/opt/nexus/apps/agent/dist/cli.js' })}\n`;
    expect(await run(['help', name])).toEqual({ code: 0, stdout: expected, stderr: '' });
    // `nexus help --help` is the help of nexus, as `nexus help` is.
    if (name !== 'help') expect(await run([name, '--help'])).toEqual({ code: 0, stdout: expected, stderr: '' });
  });

  it('`nexus --help` lists every command with its summary, and `nexus help --help` names them', async () => {
    const { stdout } = await run(['--help']);
    for (const command of COMMANDS)
      for (const { usage } of command.summary)
        expect(stdout).toMatch(new RegExp(`^  ${usage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s`, 'm'));
    const help = await run(['help', '--help']);
    for (const name of names.filter((name) => name !== 'help')) expect(help.stdout).toContain(name);
  });

  it.each(names)('`nexus %s` takes the options its module declares and refuses the others', async (name) => {
    const own = Object.keys(COMMANDS.find((command) => command.name === name)!.options);
    const others = COMMANDS.flatMap((command) => Object.keys(command.options)).filter((option) => !own.includes(option));
    for (const option of new Set(others)) {
      const { code, stderr } = await run([name, `--${option}`, 'x']);
      expect(code).toBe(2);
      expect(stderr).toContain(`--${option} is not an option of \`nexus ${name}\``);
    }
  });
});
