import { type CommandLine, defineCommand, expectNoArguments } from '../command.js';
import { formatTable } from '../format-table.js';
import { COMMON } from '../help-sections.js';
import type { Io } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';

const OPTIONS = { json: { type: 'boolean' } } as const;

async function run(line: CommandLine<typeof OPTIONS>, io: Io): Promise<number> {
  expectNoArguments(line);
  const settings = await resolveSettings(line.common, io);
  const { summarizeModels } = await import('@nexus/agents');
  const models = summarizeModels(settings.llm, io.env);
  if (line.json) {
    io.stdout.write(`${JSON.stringify(models, null, 2)}\n`);
  } else if (models.length === 0) {
    io.stdout.write('No models configured: add "providers" and "models" to your user config file (see `nexus help config`).\n');
  } else {
    const rows = models.map((model) => [
      `${model.alias}${model.default ? ' *' : ''}`,
      model.provider,
      model.type,
      model.host,
      model.id,
      model.keySet ? 'set' : 'missing',
    ]);
    io.stdout.write(`${formatTable(['ALIAS', 'PROVIDER', 'TYPE', 'HOST', 'MODEL', 'KEY'], rows)}\n`);
  }
  return 0;
}

/** `nexus models [--json]`: the configured model aliases, their endpoint and whether the key is set — never the key. */
export const modelsCommand = defineCommand({
  name: 'models',
  summary: [{ usage: 'models', text: 'List the configured model aliases' }],
  options: OPTIONS,
  help: () => `Usage: nexus models [--json]

List the configured model aliases: provider, type, endpoint host, model id, whether the
API key's variable is set (never the key) and which is the default.

Options
  --json             Print [{ alias, provider, type, host, id, keySet, default }]

${COMMON}`,
  run,
});
