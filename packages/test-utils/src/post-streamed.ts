import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Options of {@link postStreamed}. */
export interface PostStreamedOptions {
  /** Size of the body, sent in 64 KiB chunks as fast as the server takes them. */
  bytes: number;
  headers?: Record<string, string>;
  /** Announce the size in `Content-Length` (default), or send the body chunked. */
  declareLength?: boolean;
  /** How many POSTs to make, one after another (default 1). */
  times?: number;
}

/** What one POST got: the answer, or the code of the error that ended the connection before it. */
export type StreamedPostOutcome = { status: number; body: string } | { error: string };

const CLIENT = fileURLToPath(new URL('./post-streamed-client.mjs', import.meta.url));

/**
 * POSTs a large body as a real client streams it, from a Node process of its own: a server that
 * closes the connection on a client still sending resets it there, where a client sharing the
 * server's event loop would always have read the answer first.
 */
export async function postStreamed(url: string, options: PostStreamedOptions): Promise<StreamedPostOutcome[]> {
  const { bytes, headers = {}, declareLength = true, times = 1 } = options;
  const { stdout } = await promisify(execFile)(process.execPath, [CLIENT, JSON.stringify({ url, bytes, headers, declareLength, times })]);
  return JSON.parse(stdout) as StreamedPostOutcome[];
}
