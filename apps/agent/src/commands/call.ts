import { type CommandLine, defineCommand, UsageError } from '../command.js';
import { confirmOnTerminal } from '../confirm-on-terminal.js';
import { createRegistry } from '../create-registry.js';
import { COMMON, PERMISSIONS } from '../help-sections.js';
import { type Io, warningsTo } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';
import { parseToolArguments } from '../tool-arguments.js';

const OPTIONS = { json: { type: 'boolean' } } as const;

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

async function run(line: CommandLine<typeof OPTIONS>, io: Io): Promise<number> {
  const [tool, ...words] = line.positionals;
  if (!tool) throw new UsageError('Missing the tool name: nexus call <tool> [arguments].');
  const args = parseToolArguments(words);
  const settings = await resolveSettings(line.common, io);
  await using registry = await createRegistry(
    settings,
    io.stdin.isTTY ? confirmOnTerminal(io.stdin, io.stderr) : undefined,
    warningsTo(io),
  );
  if (!registry.has(tool)) throw new UsageError(`Unknown tool "${tool}"; \`nexus tools --all\` lists them.`);
  const controller = new AbortController();
  void io.interrupted.then(() => controller.abort(new Error('Interrupted.')));
  const result = await registry.execute(tool, args, { signal: controller.signal });
  if (line.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (result.success) io.stdout.write(withNewline(result.output));
  else io.stderr.write(withNewline(`${tool} failed (${result.kind}): ${result.error}`));
  return result.success ? 0 : 1;
}

/**
 * `nexus call <tool> [arguments]`: runs one tool through the registry and prints its output (or,
 * with `--json`, the whole result). Exit status 0 on success, 1 on a failed result. Ctrl-C
 * cancels the tool.
 */
export const callCommand = defineCommand({
  name: 'call',
  summary: [{ usage: 'call <tool> [args]', text: 'Run one tool and print its output' }],
  options: OPTIONS,
  help: () => `Usage: nexus call <tool> [arguments] [options]

Run one tool and print its output. Arguments are a JSON object, or name=value pairs
(values are converted to the parameter's type):
  nexus call read_file '{"path": "src/index.ts", "offset": 10}'
  nexus call read_file path=src/index.ts offset=10

Exit status: 0 when the tool succeeded, 1 when it failed, 2 on bad usage.
Confirmations are asked on the terminal; when stdin is not a terminal they are refused.

Options
  --json             Print the whole result as JSON: { success, output, error, kind, data }

${COMMON}

${PERMISSIONS}`,
  run,
});
