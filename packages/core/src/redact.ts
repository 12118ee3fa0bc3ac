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

// Each pattern above needs one of these literals (ignoring case is only ever wider): a text
// holding none of them — most paths, names and numbers — takes one scan instead of five passes.
const ANY_SECRET_LITERAL =
  /-----BEGIN |sk-|gh[pousr]_|github_pat_|glpat-|xox|AKIA|AIza|bearer|basic|token|:\/\/|key|secret|passw|credential/i;

function redactText(text: string): string {
  if (!ANY_SECRET_LITERAL.test(text)) return text;
  return text
    .replace(PRIVATE_KEY, REDACTED)
    .replace(KNOWN_TOKEN, REDACTED)
    .replace(AUTH_SCHEME, `$1 ${REDACTED}`)
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(SECRET_ASSIGNMENT, `$1$2${REDACTED}`);
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
