import type { AgentPoolOptions, AgentRuntime } from '@nexus/agents';
import { parsePort, UsageError } from './command.js';

/** `nexus serve`'s runtime options, as given on the command line. */
export interface RuntimeChoice {
  runtime?: string | undefined;
  restate?: string | undefined;
  'restate-admin'?: string | undefined;
  'restate-port'?: string | undefined;
  'restate-deployment'?: string | undefined;
  'restate-host'?: string | undefined;
  'restate-identity-key'?: string[] | undefined;
}

/** The options of `nexus serve` that choose and set up its runtime (specs/agent-server.md §10). */
export const RUNTIME_OPTIONS = {
  runtime: { type: 'string' },
  restate: { type: 'string' },
  'restate-admin': { type: 'string' },
  'restate-port': { type: 'string' },
  'restate-deployment': { type: 'string' },
  'restate-host': { type: 'string' },
  'restate-identity-key': { type: 'string', multiple: true },
} as const;

function httpUrl(value: string | undefined, option: string): string {
  if (value === undefined) throw new UsageError(`--runtime restate needs ${option} <URL>.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`Expected ${option} to be an http(s) URL, got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`Expected ${option} to be an http(s) URL, got "${value}".`);
  return url.origin;
}

/**
 * The runtime `nexus serve` serves: the local one (`AgentPool`, the default), or with `--runtime
 * restate` a worker of the Restate runtime that joins the cluster at `--restate` (ingress) and
 * `--restate-admin`, serving Restate on `--restate-host`:`--restate-port` (default 127.0.0.1:9080;
 * beyond loopback only with `--restate-identity-key`) and registered as `--restate-deployment`
 * (the URL every worker shares; default its own).
 */
export async function openRuntime(choice: RuntimeChoice, options: AgentPoolOptions): Promise<AgentRuntime> {
  const runtime = choice.runtime ?? 'local';
  const given = (name: keyof RuntimeChoice) => {
    const value = choice[name];
    return Array.isArray(value) ? value.length > 0 : value !== undefined;
  };
  const restateOnly = (
    ['restate', 'restate-admin', 'restate-port', 'restate-deployment', 'restate-host', 'restate-identity-key'] as const
  ).find(given);
  if (runtime === 'local') {
    if (restateOnly) throw new UsageError(`--${restateOnly} is for --runtime restate.`);
    const { AgentPool } = await import('@nexus/agents');
    return new AgentPool(options);
  }
  if (runtime !== 'restate') throw new UsageError(`Expected --runtime to be local or restate, got "${runtime}".`);
  const ingress = httpUrl(choice.restate, '--restate');
  const admin = httpUrl(choice['restate-admin'], '--restate-admin');
  const endpointPort = parsePort(choice['restate-port'], '--restate-port');
  const deployment = choice['restate-deployment'];
  const { startRestateRuntime } = await import('@nexus/agents-restate');
  const { stateDir: _sessionsAreInRestate, ...agentOptions } = options;
  return startRestateRuntime({
    ...agentOptions,
    ingress,
    admin,
    ...(endpointPort === undefined ? {} : { endpointPort }),
    ...(choice['restate-host'] === undefined ? {} : { endpointHost: choice['restate-host'] }),
    ...(given('restate-identity-key') ? { identityKeys: choice['restate-identity-key'] } : {}),
    ...(deployment === undefined ? {} : { deploymentUrl: httpUrl(deployment, '--restate-deployment') }),
  });
}
