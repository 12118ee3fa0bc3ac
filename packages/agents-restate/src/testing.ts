import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort as loopbackPort } from '@nexus/test-utils/free-port';
import { queryRows } from './restate-client.js';

/*
 * `@nexus/agents-restate/testing`: a Restate server for tests and trials, from the optional
 * dependency `@restatedev/restate-server` (a native binary, BSL 1.1; see the README).
 */

/** A Restate server of the npm package `@restatedev/restate-server`, on loopback, its data in a directory of yours. */
export interface RestateServer {
  readonly ingress: string;
  readonly admin: string;
  /** Kills it with SIGKILL (nothing flushed), for a crash test. */
  kill(): Promise<void>;
  /** Starts it again on the same ports and data. */
  restart(): Promise<void>;
  /** Stops it with SIGSTOP: it takes and answers nothing (acknowledges no journal entry) until {@link resume}. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** The rows of a query of the admin API's SQL introspection (`sys_invocation`, `sys_journal`, `state`, …). */
  query<Row>(sql: string): Promise<Row[]>;
  close(): Promise<void>;
}

/** The native binary the npm package ships for this platform (its `bin` is a Node wrapper that would outlive a SIGKILL). */
function restateBinary(): string {
  const serverPackage = createRequire(import.meta.url).resolve('@restatedev/restate-server/package.json');
  return createRequire(serverPackage).resolve(`@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`);
}

/**
 * A port nothing listens on at 127.0.0.1 now, for a server that binds it later (a worker's
 * `--restate-port`). It is below the kernel's ephemeral range, so a `listen(0)` in the meantime
 * cannot take it, and this process never hands it out twice.
 */
export function freePort(): Promise<number> {
  return loopbackPort();
}

/**
 * Starts a Restate server (one node: ingress, admin, worker, log and metadata) on free loopback
 * ports with its data in `dataDir`; offline, no telemetry. Invocations a worker dropped are retried
 * within a second (the default waits longer), so a killed worker's turns go on soon elsewhere.
 */
export async function startRestateServer(dataDir: string): Promise<RestateServer> {
  const [ingressPort, adminPort, fabricPort] = [await freePort(), await freePort(), await freePort()];
  const ingress = `http://127.0.0.1:${ingressPort}`;
  const admin = `http://127.0.0.1:${adminPort}`;
  const env = {
    PATH: process.env.PATH ?? '',
    RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
    RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
    RESTATE_BIND_ADDRESS: `127.0.0.1:${fabricPort}`,
    RESTATE_LISTEN_MODE: 'tcp',
    RESTATE_NODE_NAME: 'nexus-test',
    RESTATE_DEFAULT_NUM_PARTITIONS: '2',
    RESTATE_DISABLE_TELEMETRY: 'true',
    RESTATE_LOG_FILTER: 'error',
    // A killed worker's invocation is retried soon on the deployment's other workers.
    RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: '100ms',
    RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: '1s',
  };
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    const started = spawn(restateBinary(), ['--no-logo', '--base-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    // A process that ends without closing the server (a test that timed out) does not leave it running.
    const orphaned = () => started.kill('SIGKILL');
    process.once('exit', orphaned);
    started.once('exit', () => process.off('exit', orphaned));
    child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
    child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
    // Ready once both APIs answer and the partitions are up (an introspection query over them succeeds).
    const answers = (url: string, init?: RequestInit) =>
      fetch(url, init).then(
        (response) => response.ok,
        () => false,
      );
    const ready = async () => {
      if (child?.exitCode !== null) throw new Error(`restate-server exited: ${output}`);
      if (!(await answers(`${admin}/health`)) || !(await answers(`${ingress}/restate/health`))) return false;
      return answers(`${admin}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: 'SELECT service_key FROM state LIMIT 1' }),
      });
    };
    for (const deadline = Date.now() + 30_000; !(await ready()); await delay(20)) {
      if (Date.now() <= deadline) continue;
      // Not left running: it could outlive this process, holding its ports and data directory.
      started.kill('SIGKILL');
      throw new Error(`The Restate server did not answer on ${admin} and ${ingress} within 30 s: ${output}`);
    }
  };
  const stop = async (signal: NodeJS.Signals) => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill(signal);
    await exited;
  };
  await start();
  return {
    ingress,
    admin,
    kill: () => stop('SIGKILL'),
    restart: start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    query: (sql) => queryRows({ ingress, admin }, sql),
    close: async () => {
      child?.kill('SIGCONT');
      await stop('SIGTERM');
    },
  };
}
