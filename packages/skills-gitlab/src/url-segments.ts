import { InvalidParametersError } from '@nexus/core';

/**
 * Percent-encodes one path segment the way GitLab expects: everything except
 * `A–Z a–z 0–9 - . _ ~`, so `group/project` becomes `group%2Fproject`.
 */
export function encodeSegment(value: string | number): string {
  return encodeURIComponent(String(value)).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Encodes a value the LLM gave for a single path segment (a branch, label, variable key …).
 * `.` and `..` are refused: a URL parser would treat them as directory steps and the request
 * would reach another endpoint.
 */
export function segment(value: string | number, parameter: string): string {
  const text = String(value);
  if (text === '' || text === '.' || text === '..') {
    throw new InvalidParametersError(`Expected \`${parameter}\` to be a name, got ${JSON.stringify(text)}.`, { parameter });
  }
  return encodeSegment(text);
}

/** Encodes a nested path (an artifact's path inside the archive) segment by segment. */
export function nestedPath(value: string, parameter: string): string {
  const parts = value.replace(/^\/+/, '').split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) {
    throw new InvalidParametersError(
      `Expected \`${parameter}\` to be a relative path without empty, \`.\` or \`..\` parts, got ${JSON.stringify(value)}.`,
      { parameter },
    );
  }
  return parts.map(encodeSegment).join('/');
}

/**
 * Checks a project or group reference (`group/sub/name` or a numeric id) and returns it
 * encoded as one segment. URLs and `.`/`..` parts are refused rather than guessed at: the server
 * is always a configured instance, chosen with `instance`.
 */
export function namespaceSegment(value: string | number, parameter: 'project' | 'group'): string {
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return text;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^[^/\s]+@[^/\s]+:/.test(text)) {
    throw new InvalidParametersError(
      `Expected \`${parameter}\` to be a path like "group/name" or a numeric id, got a URL; choose the server with \`instance\`.`,
      { parameter },
    );
  }
  const parts = text.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) {
    throw new InvalidParametersError(
      `Expected \`${parameter}\` to be a path like "group/name" or a numeric id, got ${JSON.stringify(text)}.`,
      { parameter },
    );
  }
  return encodeSegment(text);
}
