import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, KEY_VARIABLE, SECRET_KEY, sent } from '../test/agent-fixture.js';
import { ProviderError } from './index.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ProviderError.isInstance(error)).toBe(true);
  return error as ProviderError;
}

describe.each(['openai-compatible', 'anthropic', 'openai'] as const)('a failing %s provider', (type) => {
  it('401: one line naming the model alias, the host, the status and the key variable — never the key', async () => {
    fixture = await createFixture({ type });
    const { llm, agent } = fixture;
    llm.script({ error: { status: 401, message: `Incorrect API key provided: ${SECRET_KEY}` } });

    const error = await failure(agent.send('Hello'));

    const host = new URL(llm.url).host;
    expect(error.message).toMatch(new RegExp(`^model "fast" at ${host.replace(/\./g, '\\.')}: 401: check ${KEY_VARIABLE} \\(`));
    expect(error.message).not.toContain(SECRET_KEY);
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain('\n');
    expect(error.status).toBe(401);
    expect(llm.requests).toHaveLength(1);
    const sentKey = sent(llm, 0).headers[type === 'anthropic' ? 'x-api-key' : 'authorization'];
    expect(sentKey).toContain(SECRET_KEY);
    expect(JSON.stringify(agent.messages)).not.toContain(SECRET_KEY);
  });

  it('429 and 500 are retried by the provider package, and the turn succeeds', async () => {
    fixture = await createFixture({ type });
    const { llm, agent } = fixture;
    llm.script(
      { error: { status: 429, retryAfterSeconds: 0 } },
      { error: { status: 500, retryAfterSeconds: 0 } },
      { text: 'Third time lucky.' },
    );

    const result = await agent.send('Hello');

    expect(result.content).toBe('Third time lucky.');
    expect(llm.requests).toHaveLength(3);
  });
});

describe('provider failures', () => {
  it('a server error that persists fails after the retries, naming the status', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    llm.respondWith(() => ({ error: { status: 503, retryAfterSeconds: 0 } }));

    const error = await failure(agent.send('Hello'));

    expect(error.message).toMatch(/: 503: the provider failed, still after retries/);
    expect(llm.requests).toHaveLength(3);
  });

  it('a connection reset before the answer is retried', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    llm.script({ drop: 'before-response' }, { text: 'Back again.' });

    const result = await agent.send('Hello');

    expect(result.content).toBe('Back again.');
    expect(llm.requests).toHaveLength(2);
  });

  it('a connection dropped mid-stream fails the turn clearly, and the conversation stays usable', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    llm.script({ text: 'half of an answer that breaks', drop: 'mid-stream' }, { text: 'Whole answer.' });

    const error = await failure(agent.send('Hello'));

    expect(error.message).toMatch(/^model "fast" at 127\.0\.0\.1:\d+: /);
    const next = await agent.send('Again');
    expect(next.content).toBe('Whole answer.');
  });

  it('an unreachable endpoint says so', async () => {
    fixture = await createFixture();
    const { llm, agent } = fixture;
    await llm.close();

    const error = await failure(agent.send('Hello'));

    expect(error.message).toMatch(/^model "fast" at 127\.0\.0\.1:\d+: cannot reach the provider/);
  });
});
