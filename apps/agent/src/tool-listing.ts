import { type AgentPermissions, levelAtLeast, type SkillSpec } from '@nexus/core';

const DESCRIPTION_WIDTH = 72;

/** A tool's access, as `nexus tools` shows it: `read`, `write` or `write, destructive`. */
export function access(spec: SkillSpec): string {
  if (spec.readOnly) return 'read';
  return spec.destructive ? 'write, destructive' : 'write';
}

/** The first sentence of a description, on one line and at most 72 characters. */
export function summary(description: string): string {
  // A sentence ends before a capital letter, so "e.g." and "1.5" do not end it.
  const sentence = /^.*?[.!?](?=\s+[A-Z]|\s*$)/s.exec(description)?.[0] ?? description;
  const line = sentence.replace(/\s+/g, ' ').trim();
  return line.length > DESCRIPTION_WIDTH ? `${line.slice(0, DESCRIPTION_WIDTH - 1)}…` : line;
}

/** Why a tool is left out of the list, or `undefined` when it is enabled. */
export function leftOutBecause(spec: SkillSpec, permissions: AgentPermissions): string | undefined {
  if (permissions.tools[spec.name]?.enabled === false) return 'disabled by config';
  const minimum = spec.minimumLevel ?? 'sandboxed';
  return levelAtLeast(permissions.level, minimum) ? undefined : `needs --preset ${minimum}`;
}
