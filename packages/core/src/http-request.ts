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

/** A request body read with a size cap: its text, or `undefined` when it was over the cap. */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers['content-length']) > maxBytes) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
