import { readFile, writeFile } from 'node:fs/promises';
import { testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../test/agent-fixture.js';
import type { TurnJournal, TurnStep } from './index.js';
import { asksWrite } from './kit.js';

const fixtures: Fixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

/** A journal as a durable-execution engine keeps one: each step's answer under its name, in order. */
function recordingJournal(entries: Map<string, unknown>): TurnJournal {
  return async (name, run) => {
    const value = await run();
    entries.set(name, JSON.parse(JSON.stringify(value)));
    return value;
  };
}

/** The same journal read back after a crash: every step already in it answers from it, without running. */
function replayingJournal(entries: Map<string, unknown>, ran: string[]): TurnJournal {
  return async (name, run) => {
    if (entries.has(name)) return entries.get(name) as never;
    ran.push(name);
    return run();
  };
}

describe('a turn journal', () => {
  it('runs each model step and each tool call of a turn through the journal, by a name that replays the same', async () => {
    const entries = new Map<string, unknown>();
    const fixture = await createFixture({ files: { 'log.txt': '' }, journal: recordingJournal(entries) });
    fixtures.push(fixture);
    fixture.llm.script({ toolCalls: [{ name: 'append_file', arguments: { path: 'log.txt', content: 'once\n' } }] }, { text: 'Appended.' });

    const result = await fixture.agent.send('Append once.', { requestId: 'r1' });

    expect(result.content).toBe('Appended.');
    expect([...entries.keys()]).toEqual(['r1 model step 1', expect.stringMatching(/^r1 tool call \S+$/), 'r1 model step 2']);
  });

  it("tells the journal what each step is and which are read-only: a model step and a read-only skill's call, not a call that may write", async () => {
    const steps = new Map<string, TurnStep>();
    const asking = new Map<string, boolean>();
    const journal: TurnJournal = async (name, run, step) => {
      steps.set(name.replace(/ call \S+$/, ` call ${steps.size}`), step);
      const answer = await run();
      if (step.kind === 'model step') asking.set(name, asksWrite(fixture.agent.registry, answer));
      return answer;
    };
    const fixture = await createFixture({ files: { 'log.txt': '' }, journal });
    fixtures.push(fixture);
    fixture.llm.script(
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'log.txt' } },
          { name: 'append_file', arguments: { path: 'log.txt', content: 'once\n' } },
        ],
      },
      { text: 'Read and appended.' },
    );

    await fixture.agent.send('Read, then append.', { requestId: 'r1' });

    expect(Object.fromEntries(steps)).toEqual({
      'r1 model step 1': { readOnly: true, kind: 'model step' },
      'r1 tool call 1': { readOnly: true, kind: 'tool call' },
      'r1 tool call 2': { readOnly: false, kind: 'tool call' },
      'r1 model step 2': { readOnly: true, kind: 'model step' },
    });
    // What a journal may ask of a model step's answer: whether it asks a call that may write.
    expect(Object.fromEntries(asking)).toEqual({ 'r1 model step 1': true, 'r1 model step 2': false });
  });

  it('takes what the journal holds instead of running it again: a finished tool call is not repeated, the model not asked', async () => {
    const entries = new Map<string, unknown>();
    const first = await createFixture({ files: { 'log.txt': '' }, journal: recordingJournal(entries) });
    fixtures.push(first);
    first.llm.script({ toolCalls: [{ name: 'append_file', arguments: { path: 'log.txt', content: 'once\n' } }] }, { text: 'Appended.' });
    await first.agent.send('Append once.', { requestId: 'r1' });
    // The crash came after the tool call: the last model step is not in the journal.
    entries.delete('r1 model step 2');
    const ran: string[] = [];
    const second = await createFixture({ files: { 'log.txt': 'once\n' }, journal: replayingJournal(entries, ran) });
    fixtures.push(second);
    second.llm.script({ text: 'Appended, after all.' });

    const result = await second.agent.send('Append once.', { requestId: 'r1' });

    expect(result.content).toBe('Appended, after all.');
    expect(ran).toEqual(['r1 model step 2']);
    expect(await readFile(second.dir.join('log.txt'), 'utf8')).toBe('once\n');
    expect(second.llm.requests).toHaveLength(1);
    expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'append_file', success: true })]);
  });

  it('keeps a call that paused for approval apart from its approved run: replayed, the pause pauses again and the approved run is not repeated', async () => {
    const entries = new Map<string, unknown>();
    const outside = await testdir({});
    const target = outside.join('out.txt');
    const write = { toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'approved' } }] };
    try {
      const first = await createFixture({ journal: recordingJournal(entries) });
      fixtures.push(first);
      first.llm.script(write, { text: 'Written.' });
      const paused = await first.agent.send('Write outside.', { requestId: 'r1' });
      await first.agent.resolveApproval(paused.approvals[0]?.approvalId ?? '', { decision: 'approve' }).result;
      expect(await readFile(target, 'utf8')).toBe('approved');
      await writeFile(target, 'changed since');
      entries.delete('r1 model step 2');

      const ran: string[] = [];
      const second = await createFixture({ journal: replayingJournal(entries, ran) });
      fixtures.push(second);
      second.llm.script({ text: 'Written, after all.' });
      const replayed = await second.agent.send('Write outside.', { requestId: 'r1' });
      expect(replayed.status).toBe('awaiting_approval');
      const done = await second.agent.resolveApproval(replayed.approvals[0]?.approvalId ?? '', { decision: 'approve' }).result;

      expect(done).toMatchObject({ status: 'completed', content: 'Written, after all.' });
      expect(ran).toEqual(['r1 model step 2']);
      expect(await readFile(target, 'utf8')).toBe('changed since');
    } finally {
      await outside.cleanup();
    }
  });
});
