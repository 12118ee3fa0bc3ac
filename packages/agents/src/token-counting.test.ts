import type { Worker } from 'node:worker_threads';
import { countTokens } from 'gpt-tokenizer';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerFixture, type ServerFixture } from '../test/server-fixture.js';

let fixture: ServerFixture | undefined;
const threads: Worker[] = [];
const onThread = (worker: Worker) => threads.push(worker);
afterEach(async () => {
  process.off('worker', onThread);
  await fixture?.close();
});

describe('token counting', () => {
  it("get_tokens counts with the o200k tokenizer on one worker thread, so loading it never stalls the server's event loop", async () => {
    process.on('worker', onThread);
    fixture = await createServerFixture();
    await fixture.result('/', 'create_agent', { agent_id: 'a', system_prompt: 'Count these words, please: one, two, three.' });

    const tokens = await fixture.result<Record<string, number>>('/agent/a', 'get_tokens');
    expect(tokens.system).toBe(countTokens('Count these words, please: one, two, three.'));
    expect(threads).toHaveLength(1);
    await fixture.result('/agent/a', 'get_tokens');
    expect(threads).toHaveLength(1);
  });
});
