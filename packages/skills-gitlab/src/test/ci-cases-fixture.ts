import type { ActionCase } from './action-case-fixture.js';

const P = '/projects/group%2Fproject';
const project = 'group/project';
const G = '/groups/group';

export const ciCases: ActionCase[] = [
  // gitlab_pipeline
  {
    tool: 'gitlab_pipeline',
    args: { action: 'list', project, ref: 'main', status: 'failed', source: 'push', limit: 2 },
    method: 'GET',
    path: `${P}/pipelines`,
    query: { ref: 'main', status: 'failed', source: 'push', per_page: '2' },
    output: /\[success\] #502 main 8f2c1e4d push 2024-05-01 09:30/,
  },
  {
    tool: 'gitlab_pipeline',
    args: { action: 'get', project, pipeline_id: 501 },
    method: 'GET',
    path: `${P}/pipelines/501`,
    output: /SHA: 8f2c1e4d9b7a[\s\S]*Duration: 2m 5s\nQueued: 3.2s\nTriggered by: @alice\nCoverage: 87.5%/,
  },
  {
    tool: 'gitlab_pipeline',
    args: { action: 'create', project, ref: 'main', variables: [{ key: 'DEPLOY', value: 'yes' }] },
    method: 'POST',
    path: `${P}/pipeline`,
    body: { ref: 'main', variables: [{ key: 'DEPLOY', value: 'yes' }] },
    output: /Created pipeline #503 on main \(created\)/,
  },
  {
    tool: 'gitlab_pipeline',
    args: { action: 'retry', project, pipeline_id: 501 },
    method: 'POST',
    path: `${P}/pipelines/501/retry`,
    output: /status running/,
  },
  {
    tool: 'gitlab_pipeline',
    args: { action: 'cancel', project, pipeline_id: 501 },
    method: 'POST',
    path: `${P}/pipelines/501/cancel`,
    output: /status canceled/,
  },
  { tool: 'gitlab_pipeline', args: { action: 'delete', project, pipeline_id: 501 }, method: 'DELETE', path: `${P}/pipelines/501` },
  {
    tool: 'gitlab_pipeline',
    args: { action: 'jobs', project, pipeline_id: 501, scope: 'failed' },
    method: 'GET',
    path: `${P}/pipelines/501/jobs`,
    query: { scope: 'failed' },
    output: /test:\n {2}\[success\] build #601 61s\n {2}\[failed\] unit #602 61s/,
  },
  {
    tool: 'gitlab_pipeline',
    args: { action: 'variables', project, pipeline_id: 501 },
    method: 'GET',
    path: `${P}/pipelines/501/variables`,
    output: /DEPLOY_TOKEN=\*\*\*\* \(env_var\)\nENVIRONMENT=staging \(env_var\)/,
  },

  // gitlab_job
  {
    tool: 'gitlab_job',
    args: { action: 'list', project, scope: 'success' },
    method: 'GET',
    path: `${P}/jobs`,
    query: { scope: 'success' },
    output: /\[success\] #603 test \[test\] main 61.2s/,
  },
  {
    tool: 'gitlab_job',
    args: { action: 'get', project, job_id: 602 },
    method: 'GET',
    path: `${P}/jobs/602`,
    output: /Pipeline: #501\nRunner: shared-runner-1\nArtifacts: artifacts.zip, job.log\nCoverage: 87.5%/,
  },
  {
    tool: 'gitlab_job',
    args: { action: 'log', project, job_id: 602, tail: 3 },
    method: 'GET',
    path: `${P}/jobs/602/trace`,
    output: /^Job #602 log \(last 3 lines\):\nlog line 28\nlog line 29\nlog line 30$/,
  },
  {
    tool: 'gitlab_job',
    args: { action: 'retry', project, job_id: 602 },
    method: 'POST',
    path: `${P}/jobs/602/retry`,
    output: /Retried job #602 as new job #702/,
  },
  {
    tool: 'gitlab_job',
    args: { action: 'cancel', project, job_id: 602 },
    method: 'POST',
    path: `${P}/jobs/602/cancel`,
    output: /canceled/,
  },
  {
    tool: 'gitlab_job',
    args: { action: 'play', project, job_id: 602, variables: [{ key: 'TARGET', value: 'prod' }] },
    method: 'POST',
    path: `${P}/jobs/602/play`,
    body: { job_variables_attributes: [{ key: 'TARGET', value: 'prod' }] },
  },
  { tool: 'gitlab_job', args: { action: 'erase', project, job_id: 602 }, method: 'POST', path: `${P}/jobs/602/erase` },

  // gitlab_artifact
  {
    tool: 'gitlab_artifact',
    args: { action: 'browse', project, job_id: 602 },
    method: 'GET',
    path: `${P}/jobs/602/artifacts`,
    output: /3 files, 0.1 KB uncompressed\ncoverage\/index.html\ncoverage\/lcov.info\nreport.txt/,
  },
  {
    tool: 'gitlab_artifact',
    args: { action: 'download', project, job_id: 602, output_path: 'out/artifacts.zip' },
    method: 'GET',
    path: `${P}/jobs/602/artifacts`,
    output: /Downloaded the artifacts of job #602 to \/.*\/out\/artifacts.zip \(\d+\.\d KB\)/,
  },
  {
    tool: 'gitlab_artifact',
    note: 'extract',
    args: { action: 'download', project, job_id: 602, output_path: 'unpacked', extract: true },
    method: 'GET',
    path: `${P}/jobs/602/artifacts`,
    output: /Extracted 3 file\(s\)/,
  },
  {
    tool: 'gitlab_artifact',
    args: { action: 'download-file', project, job_id: 602, artifact_path: 'report.txt', output_path: 'report.txt' },
    method: 'GET',
    path: `${P}/jobs/602/artifacts/report.txt`,
    output: /Downloaded 'report.txt' of job #602/,
  },
  {
    tool: 'gitlab_artifact',
    args: { action: 'download-ref', project, ref: 'release/1.0', job_name: 'build docs', output_path: 'ref.zip' },
    method: 'GET',
    path: `${P}/jobs/artifacts/release%2F1.0/download`,
    query: { job: 'build docs' },
  },
  { tool: 'gitlab_artifact', args: { action: 'delete', project, job_id: 602 }, method: 'DELETE', path: `${P}/jobs/602/artifacts` },
  { tool: 'gitlab_artifact', args: { action: 'keep', project, job_id: 602 }, method: 'POST', path: `${P}/jobs/602/artifacts/keep` },

  // gitlab_variable
  {
    tool: 'gitlab_variable',
    args: { action: 'list', project },
    method: 'GET',
    path: `${P}/variables`,
    output: /^Found 2 variables:\nDATABASE_URL \(protected\)\nAPI_SECRET \(protected, masked\)$/,
  },
  {
    tool: 'gitlab_variable',
    args: { action: 'get', project, key: 'DATABASE_URL' },
    method: 'GET',
    path: `${P}/variables/DATABASE_URL`,
    output: /Value: \*\*\*\*/,
  },
  {
    tool: 'gitlab_variable',
    note: 'revealed, in one environment',
    args: { action: 'get', group: 'group', key: 'DATABASE_URL', reveal: true, environment_scope: 'production' },
    method: 'GET',
    path: `${G}/variables/DATABASE_URL`,
    query: { 'filter[environment_scope]': 'production' },
    output: /Value: variable-secret-value/,
  },
  {
    tool: 'gitlab_variable',
    args: { action: 'create', project, key: 'TOKEN', value: 's3cr3t', masked: true, raw: false, environment_scope: 'prod' },
    method: 'POST',
    path: `${P}/variables`,
    body: { key: 'TOKEN', value: 's3cr3t', masked: true, raw: false, environment_scope: 'prod' },
    dryRunBody: { key: 'TOKEN', value: '****', masked: true, raw: false, environment_scope: 'prod' },
    output: /Created variable TOKEN \(protected, masked\)/,
  },
  {
    tool: 'gitlab_variable',
    args: { action: 'update', project, key: 'TOKEN', protected: false },
    method: 'PUT',
    path: `${P}/variables/TOKEN`,
    body: { protected: false },
  },
  {
    tool: 'gitlab_variable',
    args: { action: 'delete', project, key: 'TOKEN', environment_scope: 'prod' },
    method: 'DELETE',
    path: `${P}/variables/TOKEN`,
    query: { 'filter[environment_scope]': 'prod' },
  },
];
