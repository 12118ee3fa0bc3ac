import { isSecretName } from './safe-env.js';

/** What a hidden secret reads as. */
const REDACTED = '[redacted]';

// Secrets recognisable by their shape, wherever they appear in a text.
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g;
const KNOWN_TOKEN =
  /\b(?:sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,})/g;
const AUTH_SCHEME = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{6,}/gi;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^@\s/]+@/gi;
const SECRET_ASSIGNMENT =
  /\b([A-Za-z0-9_-]*(?:token|key|secret|passw(?:or)?d|credential)[A-Za-z0-9_-]*)([=:]\s*)("[^"]*"|'[^']*'|[^\s&"']+)/gi;

/** One shape of secret: its pattern, what replaces it, and a cheap test that a text may contain it. */
interface RedactionRule {
  pattern: RegExp;
  replacement: string;
  /**
   * `false` only when `pattern` cannot match `text`: a literal every match contains is missing.
   * `lower` is the text in lower case, for the patterns that ignore case.
   */
  mayMatch(text: string, lower: () => string): boolean;
}

const TOKEN_PREFIXES = ['sk-', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'xox', 'AKIA', 'AIza'];
const AUTH_SCHEMES = ['bearer', 'basic', 'token'];
const SECRET_NAMES = ['token', 'key', 'secret', 'passw', 'credential'];

// Most texts hold none of these literals, and a look for a literal costs far less than a regex pass.
const RULES: readonly RedactionRule[] = [
  { pattern: PRIVATE_KEY, replacement: REDACTED, mayMatch: (text) => text.includes('-----BEGIN ') },
  { pattern: KNOWN_TOKEN, replacement: REDACTED, mayMatch: (text) => TOKEN_PREFIXES.some((prefix) => text.includes(prefix)) },
  {
    pattern: AUTH_SCHEME,
    replacement: `$1 ${REDACTED}`,
    mayMatch: (_text, lower) => AUTH_SCHEMES.some((scheme) => lower().includes(scheme)),
  },
  { pattern: URL_PASSWORD, replacement: `$1${REDACTED}@`, mayMatch: (text) => text.includes('://') && text.includes('@') },
  {
    pattern: SECRET_ASSIGNMENT,
    replacement: `$1$2${REDACTED}`,
    mayMatch: (text, lower) => (text.includes('=') || text.includes(':')) && SECRET_NAMES.some((name) => lower().includes(name)),
  },
];

function redactText(text: string): string {
  let current = text;
  let lower: string | undefined;
  const lowerCase = () => (lower ??= current.toLowerCase());
  for (const { pattern, replacement, mayMatch } of RULES) {
    if (!mayMatch(current, lowerCase)) continue;
    const replaced = current.replace(pattern, replacement);
    if (replaced !== current) {
      current = replaced;
      lower = undefined;
    }
  }
  return current;
}

/**
 * A copy of `value` fit for records (audit lines, traces, logs): the value of every key that
 * looks secret ({@link isSecretName}: `api_key`, `Authorization`, `password` …) is replaced at
 * any depth, and secrets recognisable in any text — private keys, well-known token formats
 * (`sk-…`, `ghp_…`, `glpat-…`, `AKIA…`), `Bearer …`, a URL's password, `token=…` — are hidden.
 * Numbers, booleans and `null` are kept.
 */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        isSecretName(key) && inner !== null && inner !== undefined ? REDACTED : redactSecrets(inner),
      ]),
    );
  }
  return value;
}
