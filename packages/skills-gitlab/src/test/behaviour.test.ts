import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness-fixture.js';

const project = 'group/project';
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ settings: { maxLogBytes: 200, maxOutputChars: 5_000 } });
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('people', () => {
  it('an unknown user aborts before anything is written', async () => {
    const result = await h.call('gitlab_issue', { action: 'create', project, title: 'x', assignees: ['bob', 'zed'] });
    expect(result.kind).toBe('not_found');
    expect(result.error).toBe("User 'zed' not found on GitLab instance 'work'.");
    expect(h.server.writes()).toEqual([]);
  });

  it('takes only an exact username match', async () => {
    const result = await h.call('gitlab_mr', { action: 'update', project, iid: 1, reviewers: ['bobb'] });
    expect(result.error).toMatch(/User 'bobb' not found/);
  });

  it('"me" asks GitLab when the instance has no identity configured', async () => {
    const local = await createHarness({ settings: {} });
    try {
      local.services.register('gitlab', { instances: { work: { url: local.server.url, token: local.server.token } } });
      await local.call('gitlab_issue', { action: 'list', project, author_username: 'me' });
      expect(local.server.requests.map((request) => request.path)).toEqual(['/user', '/projects/group%2Fproject/issues']);
      expect(local.last().query.author_username).toBe('alice');
      const whoami = await local.call('gitlab_repo', { action: 'whoami' });
      expect(whoami.output).toMatch(/Configured identity: none/);
    } finally {
      await local.close();
    }
  });
});

describe('discussions and boards', () => {
  it('resolving is for MR discussions only', async () => {
    const result = await h.call('gitlab_discussion', { action: 'resolve', project, target_type: 'issue', iid: 1, discussion_id: 'abc' });
    expect(result.error).toBe('resolve is only available for MR discussions.');
  });

  it('a line comment needs both path and line', async () => {
    const result = await h.call('gitlab_discussion', { action: 'create', project, target_type: 'mr', iid: 1, body: 'x', path: 'a.ts' });
    expect(result.error).toBe('line parameter required for a line comment (path was given).');
    expect(h.server.writes()).toEqual([]);
  });

  it('a board list is made from exactly one of label, assignee, milestone or iteration', async () => {
    const result = await h.call('gitlab_board', { action: 'create-list', project, board_id: 1, label_id: 1, assignee_id: 2 });
    expect(result.error).toMatch(/exactly one of label_id, assignee_id, milestone_id, iteration_id; got label_id, assignee_id/);
  });
});

describe('job logs', () => {
  it('keeps the end of a long log and says how much was left out', async () => {
    const result = await h.call('gitlab_job', { action: 'log', project, job_id: 1 });
    expect(result.output).toMatch(/^Job #1 log \(30 lines\):\n… \[\d+ earlier bytes omitted; use tail for fewer lines\]\n/);
    expect(result.output).toMatch(/log line 30$/);
    expect(result.output.length).toBeLessThan(400);
  });

  it('says when there is no output', async () => {
    h.server.route('GET', '/projects/:project/jobs/:id/trace', () => ({ status: 200, body: '' }));
    expect((await h.call('gitlab_job', { action: 'log', project, job_id: 1 })).output).toBe('Job #1 has no log output.');
  });
});

describe('artifacts', () => {
  it('browse: a job without artifacts', async () => {
    h.server.route('GET', '/projects/:project/jobs/:id', () => ({
      id: 5,
      name: 'lint',
      status: 'success',
      artifacts: [],
      artifacts_file: null,
    }));
    expect((await h.call('gitlab_artifact', { action: 'browse', project, job_id: 5 })).output).toBe(
      'Job #5 lint (success) has no artifacts.',
    );
  });

  it('browse: expired artifacts, an unknown job, and a body that is not a zip', async () => {
    h.server.inject({ path: '/projects/group%2Fproject/jobs/5/artifacts', status: 404, body: { message: '404 Not found' } });
    expect((await h.call('gitlab_artifact', { action: 'browse', project, job_id: 5 })).output).toBe(
      'The artifacts of job #5 have expired or were not produced.',
    );
    h.server.inject({ path: '/projects/group%2Fproject/jobs/6', status: 404, body: { message: '404 Not found' } });
    const missing = await h.call('gitlab_artifact', { action: 'browse', project, job_id: 6 });
    expect([missing.kind, missing.error]).toEqual(['not_found', 'Job 6 not found.']);
    h.server.inject({ path: '/projects/group%2Fproject/jobs/7/artifacts', status: 200, body: 'plain text' });
    expect((await h.call('gitlab_artifact', { action: 'browse', project, job_id: 7 })).error).toMatch(/not a valid zip archive/);
  });

  it('downloads: friendly 404s', async () => {
    h.server.inject({ path: '/projects/group%2Fproject/jobs/5/artifacts', status: 404 });
    expect((await h.call('gitlab_artifact', { action: 'download', project, job_id: 5, output_path: 'a.zip' })).error).toMatch(
      /may not have produced artifacts or they may have expired/,
    );
    expect(
      (await h.call('gitlab_artifact', { action: 'download-file', project, job_id: 5, artifact_path: 'nope.txt', output_path: 'n.txt' }))
        .error,
    ).toMatch(/File 'nope.txt' not found in the artifacts of job 5; use browse/);
    h.server.inject({ path: /\/jobs\/artifacts\//, status: 404 });
    expect(
      (await h.call('gitlab_artifact', { action: 'download-ref', project, ref: 'main', job_name: 'build', output_path: 'r.zip' })).error,
    ).toBe("No artifacts for job 'build' on ref 'main'.");
  });

  it('writes the file and creates parent directories', async () => {
    const result = await h.call('gitlab_artifact', {
      action: 'download-file',
      project,
      job_id: 5,
      artifact_path: 'report.txt',
      output_path: 'deep/er/report.txt',
    });
    expect(result.error).toBe('');
    expect(await readFile(h.dir.join('deep/er/report.txt'), 'utf8')).toBe('all tests passed\n');
    const extracted = await h.call('gitlab_artifact', { action: 'download', project, job_id: 5, output_path: 'unzipped', extract: true });
    expect(extracted.data).toMatchObject({ result: { files: ['coverage/index.html', 'coverage/lcov.info', 'report.txt'] } });
    expect(await readFile(h.dir.join('unzipped/coverage/index.html'), 'utf8')).toBe('<html>87.5%</html>\n');
  });
});

describe('secrets in results', () => {
  it('variable values are never listed and only revealed on request', async () => {
    const list = await h.call('gitlab_variable', { action: 'list', project });
    expect(JSON.stringify(list)).not.toContain('variable-secret-value');
    const get = await h.call('gitlab_variable', { action: 'get', project, key: 'DATABASE_URL' });
    expect(JSON.stringify(get)).not.toContain('variable-secret-value');
    const created = await h.call('gitlab_variable', { action: 'create', project, key: 'K', value: 'typed-secret' });
    expect(JSON.stringify(created)).not.toContain('typed-secret');
  });

  it('pipeline variables with secret-looking names are masked', async () => {
    const result = await h.call('gitlab_pipeline', { action: 'variables', project, pipeline_id: 1 });
    expect(JSON.stringify(result)).not.toContain('pipeline-secret-value');
  });

  it('deploy keys are summarised, deploy token secrets shown only on create', async () => {
    const keys = await h.call('gitlab_deploy_key', { action: 'list', project });
    expect(JSON.stringify(keys)).not.toContain('AAAAC3NzaC1lZDI1NTE5AAAAIFSjWd1zGD2nUX7yOLsOP6vXcGy5bQ3m4tJQk8B2Ln3Z');
    h.server.route('GET', '/projects/:project/deploy_tokens', () => ({
      paginated: [{ id: 1, name: 'x', username: 'u', scopes: [], token: 'gldt-leaked' }],
    }));
    expect(JSON.stringify(await h.call('gitlab_deploy_token', { action: 'list', project }))).not.toContain('gldt-leaked');
  });
});

describe('other edge cases', () => {
  it('a failed release after a created tag says both', async () => {
    h.server.inject({
      method: 'POST',
      path: '/projects/group%2Fproject/releases',
      status: 422,
      body: { message: 'Release already exists' },
    });
    const result = await h.call('gitlab_tag', { action: 'create', project, name: 'v3', ref: 'main', release_description: 'Notes' });
    expect(result.error).toBe(
      'Created tag v3 at 8f2c1e4d, but creating its release failed: GitLab API error 422 (unprocessable: GitLab rejected the values): Release already exists',
    );
  });

  it('time stats without tracking say so', async () => {
    h.server.route('GET', '/projects/:project/issues/:iid/time_stats', () => ({
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    }));
    expect((await h.call('gitlab_time', { action: 'stats', project, target_type: 'issue', iid: 1 })).output).toMatch(
      /Estimate: Not set\nSpent: None/,
    );
  });

  it('long output is cut to the configured size', async () => {
    h.server.route('GET', '/projects/:project/issues/:iid', () => ({
      iid: 1,
      title: 't',
      state: 'opened',
      description: 'x'.repeat(20_000),
    }));
    const result = await h.call('gitlab_issue', { action: 'get', project, iid: 1 });
    expect(result.output.length).toBeLessThan(5_100);
    expect(result.output).toMatch(/\[output truncated: \d+ more characters\]$/);
  });

  it('an empty list is a sentence', async () => {
    h.server.route('GET', '/projects/:project/issues', () => ({ paginated: [] }));
    expect((await h.call('gitlab_issue', { action: 'list', project })).output).toBe('No issues found.');
  });
});
