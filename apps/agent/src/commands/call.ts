import { type CommandLine, UsageError } from '../command-line.js';
import { confirmOnTerminal } from '../confirm-on-terminal.js';
import { createRegistry } from '../create-registry.js';
import { type Io, warningsTo } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';
import { parseToolArguments } from '../tool-arguments.js';

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * `nexus call <tool> [arguments]`: runs one tool through the registry and prints its output (or,
 * with `--json`, the whole result). Exit status 0 on success, 1 on a failed result. Ctrl-C
 * cancels the tool.
 */
export async function callCommand(line: CommandLine, io: Io): Promise<number> {
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
