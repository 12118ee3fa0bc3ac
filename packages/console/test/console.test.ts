import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleFixture, SCREENSHOTS, startConsole } from './console-fixture.js';

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let fixture: ConsoleFixture;
beforeAll(async () => {
  fixture = await startConsole();
});
afterAll(() => fixture?.close());

/** Serious or critical accessibility violations axe-core finds on the page as it is. */
async function seriousViolations(page: Awaited<ReturnType<ConsoleFixture['open']>>): Promise<string[]> {
  // Through the DevTools protocol, which the page's CSP does not apply to (an injected <script> would be refused).
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string }> }> } }).axe;
    return (await axe.run()).violations
      .filter((violation) => ['serious', 'critical'].includes(violation.impact))
      .map((violation) => violation.id);
  });
  return results;
}

/** Presses Tab until the focused element matches `selector` (at most 40 times). */
async function tabTo(page: Awaited<ReturnType<ConsoleFixture['open']>>, selector: string): Promise<void> {
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) === true, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/**
 * Opens the console on agent `agentId` and runs a turn through a broken `watch` stream: the page's
 * first stream ends once the turn waits for an approval. Then, while the page is not watching (its
 * next stream is held back), the approval is given and the turn ends (`end: 'approve'`), or the
 * turn is cancelled (`'cancel'`), or it keeps waiting (`'none'`); `beforeResume` runs after that.
 */
async function turnOverABrokenStream(
  agentId: string,
  { beforeResume, end = 'approve' }: { beforeResume?: (page: Page) => Promise<void>; end?: 'approve' | 'cancel' | 'none' } = {},
) {
  const { browser, server, llm, call, dir } = fixture;
  await call('create_agent', { agent_id: agentId, preset: 'trusted' });
  const writeIt = { toolCalls: [{ name: 'write_file', arguments: { path: dir.join(`${agentId}.txt`), content: 'x' } }] };
  // A cancelled turn never asks for its answer, which would be left for the next test's turn.
  llm.script(writeIt, ...(end === 'cancel' ? [] : [{ text: 'Written after the break.' }]));
  const page = await browser.newPage();
  const watchParams: unknown[] = [];
  const firstReady = Promise.withResolvers<void>();
  const secondWatch = Promise.withResolvers<void>();
  const turnOver = Promise.withResolvers<void>();
  await page.route(`${server.url}/rpc`, async (route) => {
    const request = route.request();
    const body = request.postDataJSON();
    if (body?.method !== 'watch') return route.continue();
    watchParams.push(body.params);
    if (watchParams.length > 1) {
      secondWatch.resolve();
      await turnOver.promise;
      return route.continue();
    }
    const upstream = new AbortController();
    const response = await fetch(request.url(), {
      method: 'POST',
      headers: await request.allHeaders(),
      body: request.postData(),
      signal: upstream.signal,
    });
    let received = '';
    for await (const chunk of response.body?.pipeThrough(new TextDecoderStream()) ?? []) {
      received += chunk;
      if (received.includes('event: ready')) firstReady.resolve();
      if (/event: approval_required\n.*\n\n/.test(received)) break;
    }
    upstream.abort();
    return route.fulfill({ status: 200, contentType: 'text/event-stream', body: received });
  });
  await page.goto(`${server.url}/console/#/agent/${agentId}`);
  await page.getByLabel('Server token').fill(server.token);
  await page.getByRole('button', { name: 'Open' }).click();
  await firstReady.promise;
  const paused = await call<{ approvals: Array<{ approval_id: string }> }>('send', { content: 'Write it.', request_id: 'r1' }, agentId);
  const approvalId = paused.approvals[0]?.approval_id;
  const turn = page.locator('article.turn[data-request="r1"]');
  await turn.getByText('Waiting for approval').waitFor();
  if (end === 'approve') {
    await call('resolve_approval', { approval_id: approvalId, decision: 'approve' }, agentId);
    await call('wait_for', { request_id: 'r1' }, agentId);
  }
  if (end === 'cancel') await call('cancel', { request_id: 'r1' }, agentId);
  await secondWatch.promise;
  await beforeResume?.(page);
  turnOver.resolve();
  await page.getByRole('status').getByText('live').waitFor();
  return { page, turn, watchParams, approvalId };
}

/** Fills the server's memory of changes past what it keeps for a client that comes back, so the page's next stream cannot resume. */
function forgetChanges(): void {
  const big = 'x'.repeat(1024 * 1024);
  for (let index = 0; index < 3; index++)
    fixture.pool.emit('change', { name: 'text', data: { agent_id: 'elsewhere', request_id: 'x', delta: big } });
}

describe('the Nexus console in Chromium', () => {
  it('the one-time link gives the token, which leaves the address; the page loads only its own files under its CSP', async () => {
    const { browser, server } = fixture;
    const page = await browser.newPage();
    const requests: string[] = [];
    const refusals: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) refusals.push(message.text());
    });
    await page.goto(server.consoleUrl as string);
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
    await page.getByRole('status').getByText('live').waitFor();

    expect(page.url()).not.toContain('code=');
    expect(page.url()).not.toContain(server.token);
    expect(requests.every((url) => url.startsWith(`${server.url}/`) || url.startsWith('data:'))).toBe(true);
    expect(refusals).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'agents-empty.png') });

    // The link works once; after that the page asks for the token, and refuses a wrong one.
    const again = await browser.newPage();
    await again.goto(server.consoleUrl as string);
    await again
      .getByRole('alert')
      .getByText(/used already/)
      .waitFor();
    await again.getByLabel('Server token').fill('nxk_wrong-wrong-wrong-wrong');
    await again.getByRole('button', { name: 'Open' }).click();
    await again.getByRole('alert').getByText(/wrong/).waitFor();
    expect(await seriousViolations(again)).toEqual([]);
    await again.screenshot({ path: join(SCREENSHOTS, 'token.png') });
    await page.close();
    await again.close();
  });

  it('a turn streams its tool calls live, usage is charted, a compaction is marked in the history, and the agents tree shows the child nexus_create made under its parent', async () => {
    const { llm, call } = fixture;
    await call('create_agent', { agent_id: 'boss', preset: 'trusted' });
    llm.script(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] },
      { toolCalls: [{ name: 'nexus_create', arguments: { agent_id: 'kid', preset: 'sandboxed' } }] },
      { text: 'Made a helper.' },
    );
    const page = await fixture.open('#/agent/boss');
    await page.getByLabel('Message').fill('Read the notes, then make a helper.');
    await page.getByRole('button', { name: 'Send' }).click();

    const turn = page.locator('article.turn').first();
    await turn.getByText('Made a helper.').waitFor();
    await expect.poll(() => turn.locator('li.call .tool').allTextContents()).toEqual(['read_file', 'nexus_create']);
    expect(await turn.locator('li.call[data-call="read_file"] .output').textContent()).toContain('# Notes');
    expect(await turn.locator('li.call .decision').allTextContents()).toEqual(['allowed by preset', 'allowed by preset']);
    await turn.getByText('Done').waitFor();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await page.locator('ol.history li').getByText('Made a helper.').waitFor();
    const turnUsage = page.getByRole('img', { name: /Tokens per turn/ });
    await turnUsage.waitFor();
    expect(await turnUsage.locator('rect.input').count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'agent-turn.png'), fullPage: true });

    // Compacting marks the summary in the history.
    llm.script({ text: 'Short summary.' });
    await page.getByRole('button', { name: 'Compact' }).click();
    await page.locator('ol.history li.compaction').getByText('Short summary.').waitFor();

    await page.getByRole('link', { name: 'Agents' }).click();
    await page.locator('li[data-agent="boss"] li[data-agent="kid"]').waitFor();
    const kid = page.locator('li[data-agent="kid"] .agent-row');
    expect(await kid.locator('.level').textContent()).toBe('sandboxed');
    await kid
      .locator('.tokens')
      .getByText(/tokens/)
      .waitFor();
    expect(
      await page
        .getByRole('img', { name: /Tokens per agent/ })
        .locator('text.label')
        .allTextContents(),
    ).toContain('boss');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'agents-tree.png'), fullPage: true });
    await page.close();
  });

  it('a pending approval is approved from the Approvals page and the turn resumes; another is denied with a note, by keyboard only', async () => {
    const { llm, call, dir } = fixture;
    await call('create_agent', { agent_id: 'writer', preset: 'trusted' });
    const first = dir.join('approved.txt');
    const second = dir.join('denied.txt');
    llm.script(
      { toolCalls: [{ name: 'write_file', arguments: { path: first, content: 'yes' } }] },
      { text: 'Wrote it.' },
      { toolCalls: [{ name: 'write_file', arguments: { path: second, content: 'no' } }] },
      { text: 'Could not write it.' },
    );
    const page = await fixture.open('#/agent/writer');
    await page.getByLabel('Message').fill('Write outside your folder.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Waiting for approval').waitFor();

    await page.getByRole('link', { name: /Approvals \(1\)/ }).click();
    const card = page.locator('li.approval');
    await card.getByText(first).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'approvals.png'), fullPage: true });
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Nothing waits for you.').waitFor();

    await page.goBack();
    const turn = page.locator('article.turn').first();
    await turn.getByText('Wrote it.').waitFor();
    expect(await turn.locator('li.call .decision').allTextContents()).toEqual([expect.stringMatching(/^asked by \S.* → approved$/)]);
    expect(await readFile(first, 'utf8')).toBe('yes');

    await page.getByLabel('Message').fill('And another.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Waiting for approval').waitFor();
    // Keyboard only, from the top of the page: Tab to the Approvals link, then to the note and Deny.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, 'nav a[href="#/approvals"]');
    await page.keyboard.press('Enter');
    await page.locator('li.approval').waitFor();
    await tabTo(page, 'li.approval label:first-of-type input');
    await page.keyboard.type('not there');
    await tabTo(page, 'li.approval button.danger');
    await page.keyboard.press('Enter');
    await page.getByText('Nothing waits for you.').waitFor();
    await page.goBack();
    await page.locator('article.turn').first().getByText('Could not write it.').waitFor();
    expect(JSON.stringify(llm.requests.at(-1)?.body.messages)).toContain('denied by token holder: not there');
    await expect(readFile(second)).rejects.toThrow(/ENOENT/);
  });

  it("a turn that ends while the page's watch stream is broken shows its end once the page watches again", async () => {
    const { page, turn, watchParams } = await turnOverABrokenStream('steady');
    await turn.getByText('Written after the break.').waitFor();
    await turn.getByText('Done').waitFor();
    expect(watchParams[1]).toEqual({ after: expect.stringMatching(/:\d+$/) });
    await page.close();
  });

  it('a turn that ended while the stream was broken and could not be resumed is shown ended, though its agent runs another turn by then', async () => {
    const { llm, call, dir } = fixture;
    let later: { approvals: Array<{ approval_id: string }> } | undefined;
    // In the gap the agent also starts a turn the page never sees begin; it waits for approval, so the agent is not idle.
    const forgetAndStartAnother = async () => {
      forgetChanges();
      llm.script(
        { toolCalls: [{ name: 'write_file', arguments: { path: dir.join('restarted-2.txt'), content: 'y' } }] },
        { text: 'Not written.' },
      );
      later = await call('send', { content: 'Again.', request_id: 'r2' }, 'restarted');
    };
    const { page, turn } = await turnOverABrokenStream('restarted', { beforeResume: forgetAndStartAnother });

    await turn.getByText('Ended while the page was not connected').waitFor();
    // Its answer, which streamed while the page was not watching, comes with wait_for's reply.
    await turn.locator('p.answer').getByText('Written after the break.').waitFor();
    await page.locator('ol.history li').getByText('Written after the break.').waitFor();
    expect((await fixture.call<{ agents: Array<{ agent_id: string; state: string }> }>('list_agents')).agents).toContainEqual(
      expect.objectContaining({ agent_id: 'restarted', state: 'awaiting_approval' }),
    );
    await call('resolve_approval', { approval_id: later?.approvals[0]?.approval_id, decision: 'deny' }, 'restarted');
    await call('wait_for', { request_id: 'r2' }, 'restarted');
    await page.close();
  });

  it('a turn cancelled while the stream was broken and could not be resumed is shown cancelled', async () => {
    const { page, turn } = await turnOverABrokenStream('dropped', { end: 'cancel', beforeResume: async () => forgetChanges() });
    await turn.getByText('Cancelled while the page was not connected').waitFor();
    await page.close();
  });

  it('a turn still waiting for approval after a stream that could not be resumed stays waiting, and ends live', async () => {
    let asked: Promise<Response> | undefined;
    const forgetAndWatchTheQuestion = async (page: Page) => {
      forgetChanges();
      asked = page.waitForResponse((response) => response.request().postDataJSON()?.method === 'wait_for');
    };
    const { page, turn, approvalId } = await turnOverABrokenStream('waiting', { end: 'none', beforeResume: forgetAndWatchTheQuestion });
    await (await asked)?.finished();
    await page.evaluate(() => new Promise((rendered) => requestAnimationFrame(() => requestAnimationFrame(rendered))));
    expect(await turn.locator('.turn-status').textContent()).toMatch(/^Waiting for approval/);
    await fixture.call('resolve_approval', { approval_id: approvalId, decision: 'approve' }, 'waiting');
    await turn.getByText('Written after the break.').waitFor();
    // A turn the page had taken for ended unseen would say so here instead.
    await turn.getByText('Done').waitFor();
    await page.close();
  });

  it('the Skills page shows each package with its trust and how it is offered, and diagnostics at file:line:col', async () => {
    const page = await fixture.open('#/skills');
    const packages = page.getByRole('table', { name: 'Skill packages' });
    const row = (name: string) => packages.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    await row('lint').waitFor();
    expect(await row('lint').textContent()).toMatch(/project.*untrusted.*nexus skills trust lint/);
    expect(await row('deploy').textContent()).toMatch(/user.*ghost/);
    expect(await row('review').textContent()).toMatch(/loaded/);
    const diagnostics = page.getByRole('list', { name: 'Diagnostics' });
    expect(await diagnostics.textContent()).toMatch(/\.nexus\/skills\/broken\/SKILL\.md:\d+:\d+error/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'skills.png'), fullPage: true });
    await page.close();
  });

  it('an admin whose first admin check was lost on the way (a network failure) is still offered the admin pages', async () => {
    const { browser, server } = fixture;
    const page = await browser.newPage();
    let lost = 0;
    await page.route(`${server.url}/rpc`, (route) => {
      if (lost === 0 && route.request().postDataJSON()?.method === 'list_tools') {
        lost++;
        return route.abort('failed');
      }
      return route.continue();
    });
    await page.goto(`${server.url}/console/`);
    await page.getByLabel('Server token').fill(server.token);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tools' }).waitFor();
    expect(lost).toBe(1);
    await page.close();
  });

  it('the tools playground runs a tool from a form made from its JSON Schema, with no model configured', async () => {
    const bare = await startConsole({ withModel: false });
    try {
      const page = await bare.open('#/tools');
      const tools = page.getByRole('list', { name: 'Tools' });
      await tools.getByRole('button', { name: 'read_file' }).waitFor();
      expect(await tools.getByRole('button', { name: 'write_file' }).count()).toBe(0);

      await tools.getByRole('button', { name: 'read_file' }).click();
      await page.getByLabel(/^path/).fill('notes.md');
      await page.getByRole('button', { name: 'Run read_file' }).click();
      const result = page.getByRole('region', { name: 'Result' });
      await result.getByText('success').waitFor();
      expect(await result.locator('pre').first().textContent()).toContain('# Notes');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, 'tools.png'), fullPage: true });

      await page.getByLabel('Preset').selectOption('trusted');
      await tools.getByRole('button', { name: 'write_file' }).waitFor();
      await page.close();
    } finally {
      await bare.close();
    }
  });
});
