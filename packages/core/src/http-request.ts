import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The SHA-256 of a bearer token, which servers keep instead of the token itself. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * Whether an `Authorization` header carries the bearer token whose digest is `expected`. Digests
 * are compared in constant time, so the time taken says nothing about the token, not even its length.
 */
export function hasBearerToken(authorization: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1] !== undefined && timingSafeEqual(tokenDigest(match[1]), expected);
}

/**
 * How far past its cap a request body is still read, and thrown away: a server that closes the
 * connection on a client still sending resets it, and the client never sees the refusal.
 */
const DISCARDED_BYTES = 16 * 1024 * 1024;

/**
 * A request body read with a size cap: its text, or `undefined` when it was over the cap. A body
 * over the cap is read to its end and discarded (up to 16 MiB more), so that the caller's 413
 * reaches a client that is done sending; one announced or sent beyond that gets no such care (its
 * connection may be reset).
 */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  const limit = maxBytes + DISCARDED_BYTES;
  if (Number(request.headers['content-length']) > limit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    if (size <= maxBytes) chunks.push(chunk);
  }
  return size > maxBytes ? undefined : Buffer.concat(chunks).toString('utf8');
}
