import { NexusError } from '@nexus/core';
import { resolveCommandIsolation } from '@nexus/process';
import type { Settings } from './resolve-settings.js';

/** Where command skills run under the settings, as `nexus config` shows it in `exec`. */
export interface ExecIsolationReport {
  isolation: 'bubblewrap' | 'none';
  /** Why commands run unisolated, or why they are refused. */
  reason?: string;
  /** `exec.sandbox` is `bubblewrap` and bubblewrap cannot run here: command skills refuse every command. */
  refused?: true;
}

/** Where command skills run; a required bubblewrap that cannot run is reported, not thrown. */
export async function reportExecIsolation(settings: Settings): Promise<ExecIsolationReport> {
  try {
    return await resolveCommandIsolation(settings.exec, settings.preset);
  } catch (error) {
    if (NexusError.isInstance(error) && error.code === 'SANDBOX_UNAVAILABLE')
      return { isolation: 'none', reason: error.message, refused: true };
    throw error;
  }
}

/** The report as one line for `nexus tools --all`. */
export function describeExecIsolation(report: ExecIsolationReport, settings: Settings): string {
  if (report.refused) return `Commands are refused: ${report.reason}`;
  if (report.isolation === 'none') return `Commands run unisolated: ${report.reason}.`;
  const network = settings.exec.network ? 'network on' : 'no network';
  return `Commands run inside bubblewrap: a PID namespace of their own, writes only where the tool may write, a private /tmp, blocked paths hidden, ${network}.`;
}
