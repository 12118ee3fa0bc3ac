import { ConfigError, formatSchemaIssues } from '@nexus/core';
import { z } from 'zod';

const INSTANCE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function checkBaseUrl(value: string, context: z.RefinementCtx): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    context.addIssue({ code: 'custom', message: 'Expected an absolute http or https URL' });
    return;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    context.addIssue({ code: 'custom', message: `Expected an http or https URL, got the scheme "${url.protocol}"` });
  }
  if (url.username || url.password) {
    context.addIssue({
      code: 'custom',
      message: 'Expected a URL without credentials; put the token in `token`, `tokenEnv` or `tokenFile`',
    });
  }
  if (url.search || url.hash) context.addIssue({ code: 'custom', message: 'Expected a URL without a query or fragment' });
}

// The shapes are named and the schemas annotated with them so that the TSDoc of each field
// reaches the published types (an inferred shape is emitted without its comments).
const instanceShape = {
  /** Base URL, `http` or `https`, optionally with a path prefix (`https://example.com/gitlab`). */
  url: z
    .string()
    .superRefine(checkBaseUrl)
    .transform((url) => url.replace(/\/+$/, '')),
  /** The access token itself (discouraged: prefer `tokenEnv` or `tokenFile`). Wins over the others. */
  token: z.string().min(1).optional(),
  /** Name of the environment variable holding the token, read when the first request is made. */
  tokenEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Expected an environment variable name')
    .optional(),
  /** Absolute path (or `~/…`) of a file holding the token, read when the first request is made. */
  tokenFile: z
    .string()
    .min(1)
    .refine((path) => path.startsWith('/') || path.startsWith('~/'), 'Expected an absolute path or one starting with ~/')
    .optional(),
  /** Your username on this instance: what `"me"` means, without asking the server. */
  username: z.string().min(1).optional(),
  /** Your e-mail address, shown by `whoami`. */
  email: z.string().min(1).optional(),
  /** Your numeric user id, used for `"me"` in assignees and reviewers. */
  userId: z.number().int().positive().optional(),
};

const instanceSchema: z.ZodObject<typeof instanceShape, z.core.$strict> = z
  .strictObject(instanceShape)
  .refine((instance) => instance.token ?? instance.tokenEnv ?? instance.tokenFile, {
    message: 'Expected one of `token`, `tokenEnv` or `tokenFile`',
  });

const settingsShape = {
  /** Instance name → instance. The LLM can only name these; it never supplies a URL. */
  instances: z.record(z.string().regex(INSTANCE_NAME, 'Expected an instance name of letters, digits, `_`, `.` and `-`'), instanceSchema),
  /** Instance used when neither the call nor the git remote picks one (default: the first). */
  defaultInstance: z.string().optional(),
  /** Time limit of one HTTP attempt, in ms (default 30 000). */
  timeoutMs: z.number().int().positive().default(30_000),
  /** Retries of a rate-limited request, or of a GET that timed out or met a 5xx (default 3). */
  retries: z.number().int().min(0).max(10).default(3),
  /** First back-off delay in ms; each further retry waits 1.5 times longer (default 1 000). */
  retryDelayMs: z.number().int().min(0).default(1_000),
  /** Longest `Retry-After` honoured, in seconds (default 60). */
  maxRetryAfterSeconds: z.number().int().min(0).default(60),
  /** Largest artifact archive, artifact file or job log downloaded, in bytes (default 100 MiB). */
  maxDownloadBytes: z
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  /** Bytes of a job log kept (the end of it), in bytes (default 64 KiB). */
  maxLogBytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  /** Longest text a skill returns to the LLM, in characters (default 100 000). */
  maxOutputChars: z.number().int().positive().default(100_000),
  /**
   * For tests only (default false): lets artifact downloads also follow redirects to `http` on
   * loopback (`127.0.0.1`, `localhost`, `[::1]`), where a test's stand-in storage listens. Every
   * other target must be `https`, and a followed redirect never carries a credential either way.
   */
  allowLoopbackHttpRedirects: z.boolean().default(false),
};

const settingsSchema: z.ZodObject<typeof settingsShape, z.core.$strict> = z.strictObject(settingsShape).superRefine((settings, context) => {
  const names = Object.keys(settings.instances);
  if (names.length === 0) context.addIssue({ code: 'custom', path: ['instances'], message: 'Expected at least one instance' });
  if (settings.defaultInstance !== undefined && !names.includes(settings.defaultInstance)) {
    context.addIssue({
      code: 'custom',
      path: ['defaultInstance'],
      message: `Expected the name of a configured instance (${names.join(', ')}), got ${JSON.stringify(settings.defaultInstance)}`,
    });
  }
});

/** One GitLab server the skills may contact: its URL, where its token comes from, and who you are on it. */
export type GitLabInstanceSettings = z.input<typeof instanceSchema>;

/**
 * The `gitlab` service: the instances the skills may contact and how the client behaves.
 * Register it with `services.register('gitlab', settings)`; it is validated on first use.
 */
export type GitLabSettings = z.input<typeof settingsSchema>;

/**
 * {@link GitLabSettings} after validation: every default filled in, instance URLs without a
 * trailing `/` (in configuration order), and the default instance's name.
 */
export type ResolvedGitLabSettings = Omit<z.output<typeof settingsSchema>, 'defaultInstance'> & {
  /** The default instance's name: `defaultInstance`, else the first instance. */
  defaultInstance: string;
};

declare module '@nexus/core' {
  interface Services {
    /** GitLab instances and client options for `@nexus/skills-gitlab`. */
    gitlab: GitLabSettings;
  }
}

/**
 * Validates GitLab settings and fills in defaults. Throws a {@link ConfigError} that names every
 * offending field (unknown keys included) without ever quoting a token.
 */
export function parseGitLabSettings(settings: unknown): ResolvedGitLabSettings {
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success) throw new ConfigError(`Invalid GitLab settings: ${formatSchemaIssues(parsed.error.issues)}.`);
  const { defaultInstance = Object.keys(parsed.data.instances)[0] as string } = parsed.data;
  return { ...parsed.data, defaultInstance };
}
