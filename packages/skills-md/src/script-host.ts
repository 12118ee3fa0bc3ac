// The program a child Node process runs to list or run the commands of a package's
// scripts/commands.mjs (§5), so that a package's code never runs inside the host. It is passed to
// `node --input-type=module --eval`, with the module path, the mode (`list` or `run`), the command
// name and a random marker as arguments, and `{ args, source? }` as JSON on stdin: the command's
// arguments and, only when the file's stamp changed since it was listed, the module's text as it
// was listed. When the file no longer holds that text (an edit not loaded yet, or one that did not
// load), a module loader hook answers the module's URL with the held text, so the listed version
// runs — its own imports still resolve beside it. The
// answer is the last stdout line starting with the marker; anything the command prints before it
// is its own output.
export const SCRIPT_HOST_SOURCE = `
import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { pathToFileURL } from 'node:url';
const [modulePath, mode, commandName, marker] = process.argv.slice(1);
const onDisk = (path) => { try { return readFileSync(path, 'utf8'); } catch { return undefined; } };
// Loads the held text for the module's URL: in-thread where Node has registerHooks (22.15+; register
// is deprecated from 26), else with register's off-thread hooks (Node 22 before 22.15).
const holdModule = (held) => {
  if (typeof nodeModule.registerHooks === 'function') {
    nodeModule.registerHooks({
      load: (url, context, nextLoad) =>
        url === held.url ? { format: 'module', source: held.source, shortCircuit: true } : nextLoad(url, context),
    });
    return;
  }
  const hooks = 'let held; export function initialize(data) { held = data; } ' +
    'export async function load(url, context, nextLoad) { ' +
    'return url === held.url ? { format: "module", source: held.source, shortCircuit: true } : nextLoad(url, context); }';
  nodeModule.register('data:text/javascript,' + encodeURIComponent(hooks), { data: held });
};
const answer = (value) => process.stdout.write('\\n' + marker + JSON.stringify(value) + '\\n');
const commandsOf = (module) =>
  Object.entries(module)
    .filter(([, value]) => value !== null && typeof value === 'object' && typeof value.run === 'function')
    .map(([exportName, value]) => ({ exportName, value, name: typeof value.name === 'string' ? value.name : exportName }));
try {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const { args = {}, source } = JSON.parse(input || '{}');
  const url = pathToFileURL(modulePath).href;
  // Not for a file touched but unchanged: the off-thread hooks cost a worker.
  if (typeof source === 'string' && onDisk(modulePath) !== source) holdModule({ url, source });
  const module = await import(url);
  const commands = commandsOf(module);
  if (mode === 'list') {
    answer({ ok: true, commands: commands.map(({ exportName, value, name }) => {
      const { run, ...definition } = value;
      return { exportName, ...definition, name };
    }) });
  } else {
    const command = commands.find((candidate) => candidate.name === commandName);
    if (!command) throw new Error('scripts/commands.mjs has no command named ' + JSON.stringify(commandName) + ' any more');
    const result = await command.value.run(args);
    answer({ ok: true, result: result === undefined ? null : result });
  }
} catch (error) {
  answer({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
}
`;
