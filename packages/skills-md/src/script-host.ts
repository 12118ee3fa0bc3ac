// The program a child Node process runs to list or run the commands of a package's
// scripts/commands.mjs (§5), so that a package's code never runs inside the host. It is passed to
// `node --input-type=module --eval`, with the module path, the mode (`list` or `run`), the command
// name and a random marker as arguments, and the command's arguments as JSON on stdin. The answer
// is the last stdout line starting with the marker; anything the command prints before it is its
// own output.
export const SCRIPT_HOST_SOURCE = `
import { pathToFileURL } from 'node:url';
const [modulePath, mode, commandName, marker] = process.argv.slice(1);
const answer = (value) => process.stdout.write('\\n' + marker + JSON.stringify(value) + '\\n');
const commandsOf = (module) =>
  Object.entries(module)
    .filter(([, value]) => value !== null && typeof value === 'object' && typeof value.run === 'function')
    .map(([exportName, value]) => ({ exportName, value, name: typeof value.name === 'string' ? value.name : exportName }));
try {
  const module = await import(pathToFileURL(modulePath).href);
  const commands = commandsOf(module);
  if (mode === 'list') {
    answer({ ok: true, commands: commands.map(({ exportName, value, name }) => {
      const { run, ...definition } = value;
      return { exportName, ...definition, name };
    }) });
  } else {
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const command = commands.find((candidate) => candidate.name === commandName);
    if (!command) throw new Error('scripts/commands.mjs has no command named ' + JSON.stringify(commandName) + ' any more');
    const result = await command.value.run(JSON.parse(input || '{}'));
    answer({ ok: true, result: result === undefined ? null : result });
  }
} catch (error) {
  answer({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
}
`;
