/** Variables a child process may inherit: locale, terminal, paths and identity, nothing else. */
const SAFE_NAMES: ReadonlySet<string> = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'NO_COLOR',
  // Windows equivalents (seed 000 §Environment Sanitization).
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PATHEXT',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'COMSPEC',
  'WINDIR',
]);

const SAFE_PREFIXES: readonly string[] = ['LC_'];

/**
 * Names that look like they hold a secret. Checked even for allowed names, so an allow-list
 * entry can never let one through.
 */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASS(WORD|WD|PHRASE)?|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|SIGNATURE|CERT/i;

/** Whether a variable name suggests it holds a secret (API keys, tokens, passwords, credentials …). */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Options of {@link getSafeEnv}. */
export interface SafeEnvOptions {
  /** Environment to filter (default `process.env`). */
  source?: NodeJS.ProcessEnv;
  /** Further names to pass through; secret-looking names are refused all the same. */
  allow?: readonly string[];
  /** Variables to set on top, e.g. `{ GIT_TERMINAL_PROMPT: '0' }`; secret-looking names are refused. */
  set?: Readonly<Record<string, string>>;
}

/**
 * The environment for a child process: an allow-list of harmless variables (PATH, HOME, LANG,
 * LC_*, TERM, TMPDIR, USER, SHELL, TZ …). Cloud and VCS credentials, API keys, tokens and anything
 * else whose name suggests a secret never pass, whatever `allow` says.
 */
export function getSafeEnv(options: SafeEnvOptions = {}): Record<string, string> {
  const { source = process.env, allow = [], set = {} } = options;
  const extra = new Set(allow);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || isSecretName(name)) continue;
    if (SAFE_NAMES.has(name) || extra.has(name) || SAFE_PREFIXES.some((prefix) => name.startsWith(prefix))) env[name] = value;
  }
  for (const [name, value] of Object.entries(set)) {
    if (!isSecretName(name)) env[name] = value;
  }
  return env;
}
