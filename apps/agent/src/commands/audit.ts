import { RULE_DECISIONS, type RuleDecision } from '@nexus/core';
import type { AuditRecord } from '@nexus/registry';
import { readAuditLog } from '../audit-log.js';
import { type CommandLine, defineCommand, expectNoArguments, UsageError } from '../command.js';
import { formatTable } from '../format-table.js';
import { COMMON } from '../help-sections.js';
import type { Io } from '../io.js';
import { resolveSettings } from '../resolve-settings.js';

const OPTIONS = {
  agent: { type: 'string' },
  tool: { type: 'string' },
  since: { type: 'string' },
  decision: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const DURATION = /^(\d+)([smhd])$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--since`: a duration back from now (`30m`, `2h`, `7d`) or a date (`2026-11-26`, an ISO time). */
function parseSince(since: string | undefined, now: number): number | undefined {
  if (since === undefined) return undefined;
  const duration = DURATION.exec(since);
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
  const time = Date.parse(since);
  if (Number.isNaN(time)) throw new UsageError(`Expected \`--since\` to be a duration (30m, 2h, 7d) or a date, got "${since}".`);
  return time;
}

function parseDecision(decision: string | undefined): RuleDecision | undefined {
  if (decision === undefined || (RULE_DECISIONS as readonly string[]).includes(decision)) return decision as RuleDecision | undefined;
  throw new UsageError(`Expected \`--decision\` to be one of ${RULE_DECISIONS.join(', ')}, got "${decision}".`);
}

function describeCaller({ caller }: AuditRecord): string {
  if (!caller) return '';
  const agent = caller.agentId ? `agent ${caller.agentId}${caller.ancestry?.length ? ` (under ${caller.ancestry.join(' < ')})` : ''}` : '';
  return [caller.tokenHolder, agent, caller.mcpClient && `MCP ${caller.mcpClient}`].filter(Boolean).join(', ');
}

async function run(line: CommandLine<typeof OPTIONS>, io: Io): Promise<number> {
  expectNoArguments(line);
  const since = parseSince(line.since, Date.now());
  const decision = parseDecision(line.decision);
  const settings = await resolveSettings(line.common, io);
  const matches = (record: AuditRecord) =>
    (line.tool === undefined || record.tool === line.tool) &&
    (decision === undefined || record.decision === decision) &&
    (since === undefined || Date.parse(record.time) >= since) &&
    (line.agent === undefined || record.caller?.agentId === line.agent || (record.caller?.ancestry ?? []).includes(line.agent));
  const rows: AuditRecord[] = [];
  for await (const record of readAuditLog(settings.audit)) {
    if (!matches(record)) continue;
    if (line.json) io.stdout.write(`${JSON.stringify(record)}\n`);
    else rows.push(record);
  }
  if (!line.json) {
    const cells = rows.map((record) => [
      record.time,
      record.tool,
      record.decision,
      record.decidedBy,
      record.result,
      describeCaller(record),
    ]);
    io.stdout.write(`${formatTable(['TIME', 'TOOL', 'DECISION', 'BY', 'RESULT', 'CALLER'], cells)}\n`);
  }
  return 0;
}

/** `nexus audit`: the audit log's records, oldest first, filtered, as a table or JSON lines. */
export const auditCommand = defineCommand({
  name: 'audit',
  summary: [{ usage: 'audit [--agent --tool --since --decision] [--json]', text: 'Show who did what, and why it was allowed' }],
  options: OPTIONS,
  help: () => `Usage: nexus audit [--agent <id>] [--tool <name>] [--since <when>] [--decision <d>] [--json]

Show the audit log ($XDG_STATE_HOME/nexus/audit.jsonl and its rotated files), oldest
first: every call through Nexus, who made it, what was decided and by what (the
preset, a rule, a hook), the confirmation, isolation and the result.

  --agent <id>       Calls of this agent and of the agents it created
  --tool <name>      Calls of this tool
  --since <when>     A duration back from now (30m, 2h, 7d) or a date (2026-11-26)
  --decision <d>     allow, ask or deny
  --json             One JSON record per line, as the log holds them

The log is on by default; "audit": { "enabled": false } in your config file turns
it off, "maxBytes" (default 10485760) and "keep" (default 5) set its rotation.

${COMMON}`,
  run,
});
