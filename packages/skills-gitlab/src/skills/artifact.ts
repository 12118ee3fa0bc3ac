import { normalizePath, type ToolResult } from '@nexus/core';
import { extractFiles, saveFile } from '../artifact-output.js';
import { type ActionContext, defineGitLabSkill, type GitLabArguments, reply } from '../define-gitlab-skill.js';
import { size } from '../format.js';
import { GitLabApiError } from '../gitlab-api-error.js';
import type { GitLabRequest } from '../gitlab-client.js';
import { NOTHING, objectWith } from '../output-schema.js';
import { flag, integer, text } from '../schema.js';
import { nestedPath, segment } from '../url-segments.js';
import { listZipEntries, readZip } from '../zip-archive.js';

/** Arguments of `gitlab_artifact`. */
export interface GitLabArtifactArguments extends GitLabArguments {
  job_id?: number;
  output_path?: string;
  artifact_path?: string;
  ref?: string;
  job_name?: string;
  extract?: boolean;
}

interface Job {
  id: number;
  name: string;
  status: string;
  artifacts?: Array<{ file_type?: string }>;
  artifacts_file?: { filename?: string } | null;
}

const MAX_LISTED = 50;

const jobPath = (context: ActionContext<GitLabArtifactArguments>, suffix = '') => `${context.base}/jobs/${context.args.job_id}${suffix}`;

const isNotFound = (error: unknown) => GitLabApiError.isInstance(error) && error.status === 404;

/** A request whose 404 is told as `notFound`, a sentence that tells the LLM what to do next. */
async function explainNotFound<T>(request: Promise<T>, notFound: string): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (isNotFound(error)) throw new GitLabApiError(notFound, { status: 404, cause: error });
    throw error;
  }
}

/**
 * A download: GET `request`, then write the bytes to `output_path` (or, with `extract`, unpack
 * the zip into that directory). Goes through the change gate: it writes to disk.
 */
function download(
  context: ActionContext<GitLabArtifactArguments>,
  request: Pick<GitLabRequest, 'path' | 'query'>,
  what: string,
  notFound: string,
): Promise<ToolResult> {
  const { output_path: outputPath = '', extract = false } = context.args;
  const shown = normalizePath(outputPath, context.services.getCwd());
  return context.change({
    requests: [{ method: 'GET', ...request }],
    effects: [extract ? `extract into ${shown}` : `write ${shown}`],
    async perform() {
      const bytes = await explainNotFound(context.client.download(request, context.signal, { followRedirects: true }), notFound);
      if (!extract) {
        const written = await saveFile(context, outputPath, bytes);
        return reply(`Downloaded ${what} to ${written} (${size(bytes.length)}).`, { path: written, bytes: bytes.length });
      }
      const files = readZip(bytes, context.client.settings.maxDownloadBytes);
      const directory = await extractFiles(context, outputPath, files);
      const names = [...files.keys()].sort();
      return reply(`Extracted ${names.length} file(s) of ${what} into ${directory} (${size(bytes.length)} archive).`, {
        path: directory,
        files: names,
      });
    },
  });
}

/** `gitlab_artifact`: CI job artifacts — list, download, unpack, delete, keep. */
export const gitlabArtifactSkill = defineGitLabSkill<GitLabArtifactArguments>({
  name: 'gitlab_artifact',
  title: 'GitLab job artifacts',
  description: 'GitLab CI job artifacts.',
  scope: 'project',
  parameters: {
    type: 'object',
    properties: {
      job_id: integer(),
      output_path: text('File to write (with extract: directory)'),
      artifact_path: text('download-file: path inside the archive'),
      ref: text('download-ref: branch or tag'),
      job_name: text('download-ref'),
      extract: flag('download, download-ref: unpack the zip into output_path'),
    },
  },
  actions: {
    browse: {
      result: objectWith('job', 'files'),
      required: ['job_id'],
      async run(context) {
        const job = await explainNotFound(context.get<Job>(jobPath(context)), `Job ${context.args.job_id} not found.`);
        const hasArchive = (job.artifacts ?? []).some((artifact) => artifact.file_type === 'archive') || Boolean(job.artifacts_file);
        if (!hasArchive) return reply(`Job #${job.id} ${job.name} (${job.status}) has no artifacts.`, { job: job, files: [] });
        let bytes: Buffer;
        try {
          bytes = await context.client.download({ path: jobPath(context, '/artifacts') }, context.signal, { followRedirects: true });
        } catch (error) {
          if (isNotFound(error))
            return reply(`The artifacts of job #${job.id} have expired or were not produced.`, { job: job, files: [] });
          throw error;
        }
        const entries = listZipEntries(bytes).sort((a, b) => a.name.localeCompare(b.name));
        const total = entries.reduce((sum, entry) => sum + entry.size, 0);
        const names = entries.slice(0, MAX_LISTED).map((entry) => entry.name);
        const more = entries.length > MAX_LISTED ? [`... and ${entries.length - MAX_LISTED} more files`] : [];
        const output = [
          `Artifacts of job #${job.id} ${job.name} (${job.status}): ${entries.length} files, ${size(total)} uncompressed`,
          ...names,
          ...more,
        ].join('\n');
        return reply(output, { job: job, files: entries });
      },
    },
    download: {
      result: objectWith('path'),
      required: ['job_id', 'output_path'],
      run: (context) =>
        download(
          context,
          { path: jobPath(context, '/artifacts') },
          `the artifacts of job #${context.args.job_id}`,
          `Job ${context.args.job_id} has no artifacts: it may not have produced artifacts or they may have expired.`,
        ),
    },
    'download-file': {
      result: objectWith('path', 'bytes'),
      required: ['job_id', 'artifact_path', 'output_path'],
      run(context) {
        const artifactPath = context.args.artifact_path as string;
        return download(
          context,
          { path: jobPath(context, `/artifacts/${nestedPath(artifactPath, 'artifact_path')}`) },
          `'${artifactPath}' of job #${context.args.job_id}`,
          `File '${artifactPath}' not found in the artifacts of job ${context.args.job_id}; use browse to list them.`,
        );
      },
    },
    'download-ref': {
      result: objectWith('path', 'bytes'),
      required: ['ref', 'job_name', 'output_path'],
      run(context) {
        const { ref, job_name: jobName } = context.args as Required<Pick<GitLabArtifactArguments, 'ref' | 'job_name'>>;
        return download(
          context,
          { path: `${context.base}/jobs/artifacts/${segment(ref, 'ref')}/download`, query: { job: jobName } },
          `the artifacts of job '${jobName}' on ${ref}`,
          `No artifacts for job '${jobName}' on ref '${ref}'.`,
        );
      },
    },
    delete: {
      result: NOTHING,
      required: ['job_id'],
      run: (context) =>
        context.send(
          { method: 'DELETE', path: jobPath(context, '/artifacts') },
          () => `Deleted the artifacts of job #${context.args.job_id}.`,
        ),
    },
    keep: {
      result: objectWith('id', 'name', 'status'),
      required: ['job_id'],
      run: (context) =>
        context.send<Job>(
          { method: 'POST', path: jobPath(context, '/artifacts/keep') },
          (job) => `The artifacts of job #${job.id} will be kept (no expiry).`,
        ),
    },
  },
});
