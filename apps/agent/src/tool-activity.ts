import type { AgentEvent } from '@nexus/agents';

const VALUE_WIDTH = 60;
const MESSAGE_WIDTH = 200;

function clip(text: string, width: number): string {
  const line = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

function formatValue(value: unknown): string {
  return clip(typeof value === 'string' ? value : JSON.stringify(value), VALUE_WIDTH);
}

/**
 * One line per tool call and per result, for a person watching an agent work:
 * `→ read_file path=a.txt`, `✓ read_file 12 lines`, `✗ write_file forbidden: …`.
 * Long values are cut; nothing spans more than one line.
 */
export function describeToolActivity(event: AgentEvent): string | undefined {
  if (event.type === 'tool-call') {
    const args =
      typeof event.arguments === 'string'
        ? formatValue(event.arguments)
        : Object.entries(event.arguments)
            .map(([name, value]) => `${name}=${formatValue(value)}`)
            .join(' ');
    return `→ ${event.name}${args ? ` ${args}` : ''}`;
  }
  if (event.type === 'tool-result') {
    if (!event.success) return `✗ ${event.name} ${clip(event.output.replace(/^Error \(([a-z_]+)\): /, '$1: '), MESSAGE_WIDTH)}`;
    const lines = event.output === '' ? 0 : event.output.replace(/\n$/, '').split('\n').length;
    return `✓ ${event.name} ${lines} ${lines === 1 ? 'line' : 'lines'}`;
  }
  return undefined;
}
