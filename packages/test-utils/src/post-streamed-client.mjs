// The client side of postStreamed (post-streamed.ts), run in a Node process of its own:
// node post-streamed-client.mjs '{"url","bytes","headers","declareLength","times"}'
// Prints a JSON array with what each POST got: { status, body }, or { error } when the
// connection failed before the answer had arrived.
import { request } from 'node:http';
import { Readable } from 'node:stream';

const { url, bytes, headers, declareLength, times } = JSON.parse(process.argv[2]);
const chunk = Buffer.alloc(64 * 1024, 'x');

function* body() {
  for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk.subarray(0, Math.min(chunk.length, bytes - sent));
}

function post() {
  return new Promise((resolve) => {
    const outgoing = request(
      url,
      { method: 'POST', headers: { ...headers, ...(declareLength ? { 'content-length': String(bytes) } : {}) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (part) => (text += part));
        response.on('end', () => resolve({ status: response.statusCode, body: text }));
        response.on('error', (error) => resolve({ error: error.code ?? error.message }));
      },
    );
    outgoing.on('error', (error) => resolve({ error: error.code ?? error.message }));
    Readable.from(body()).pipe(outgoing);
  });
}

const outcomes = [];
for (let attempt = 0; attempt < times; attempt++) outcomes.push(await post());
process.stdout.write(JSON.stringify(outcomes));
