import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';

/** Linux's default first ephemeral port, where `/proc` cannot be read. */
const DEFAULT_EPHEMERAL_START = 32768;
/** Lowest port handed out: below it are the well-known and many registered services' ports. */
const LOWEST = 10_000;
/**
 * The Fetch standard's "bad ports" above {@link LOWEST}: `fetch()` and browsers refuse to connect
 * to them, so a server there would never be reached.
 */
const BAD_PORTS = new Set([10_080]);

let firstEphemeral: number | undefined;

/** The first port the kernel hands out to `listen(0)` (`net.ipv4.ip_local_port_range`), read once. */
function ephemeralStart(): number {
  firstEphemeral ??= readEphemeralStart();
  return firstEphemeral;
}

function readEphemeralStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) ? start : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
}

/** Ports this process has handed out or found taken: never handed out twice. */
const handedOut = new Set<number>();

/** Whether `port` can be listened on at 127.0.0.1 now. */
async function isFree(port: number): Promise<boolean> {
  const probe = createServer();
  try {
    probe.listen(port, '127.0.0.1');
    await once(probe, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}

/**
 * A port nothing listens on at 127.0.0.1 now: for a server whose URL must be known before it
 * starts. It is picked below the kernel's ephemeral range, so a `listen(0)` elsewhere in the
 * meantime (another stand-in starting) cannot take it before the test's server binds it.
 */
export async function freePort(): Promise<number> {
  const highest = ephemeralStart() - 1;
  if (highest < LOWEST + 1000) return kernelsPick();
  for (;;) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (handedOut.has(port) || BAD_PORTS.has(port)) continue;
    // Noted before the probe, so that calls running at once never probe, and hand out, the same port.
    handedOut.add(port);
    if (await isFree(port)) return port;
  }
}

/** A port the kernel picks from its ephemeral range, free now (where that range leaves no room below it). */
async function kernelsPick(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
