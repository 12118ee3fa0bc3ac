import { isIP } from 'node:net';

/**
 * Whether `hostname` (as in `new URL(…).hostname`) names this machine only: `localhost`, an
 * address in 127.0.0.0/8, or `::1`. `localhost.example.com` is not loopback.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(host);
}
