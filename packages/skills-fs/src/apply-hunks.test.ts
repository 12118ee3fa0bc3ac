import { applyPatch, structuredPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type ApplyHunksOptions, applyHunks, HunkMismatch } from './apply-hunks.js';

const line = fc.constantFrom('a', 'b', 'c', '', ' a', 'd');
const lines = fc.array(line, { maxLength: 30 });

/** jsdiff's own result for the same options, `false` when a hunk fits nowhere. */
function jsdiff(source: string, patch: ReturnType<typeof structuredPatch>, fuzzy: boolean): string | false {
  const trimmed = (_line: number, text: string | undefined, _operation: string, content: string) =>
    text !== undefined && text.trim() === content.trim();
  return applyPatch(source, patch, { fuzzFactor: fuzzy ? 2 : 0, autoConvertLineEndings: false, ...(fuzzy && { compareLine: trimmed }) });
}

function ours(source: string, patch: ReturnType<typeof structuredPatch>, options: ApplyHunksOptions): string | false {
  try {
    return applyHunks(source, patch, options);
  } catch (error) {
    if (error instanceof HunkMismatch) return false;
    throw error;
  }
}

describe('applyHunks', () => {
  test('fits and applies hunks exactly as jsdiff applyPatch does (strict and fuzzy, drifted files, final newlines)', () => {
    fc.assert(
      fc.property(
        lines,
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()), { maxLength: 30 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        fc.boolean(),
        (before, changes, beforeNewline, afterNewline, context, drift, fuzzy) => {
          const after = before.flatMap((text, index) => {
            const [change, drop, insert] = changes[index] ?? [false, false, false];
            return [...(insert ? ['new'] : []), ...(drop ? [] : [change ? `X${text}` : text])];
          });
          const original = before.join('\n') + (beforeNewline ? '\n' : '');
          const patch = structuredPatch('f', 'f', original, after.join('\n') + (afterNewline ? '\n' : ''), '', '', { context });
          const source = drift ? original.replace('\n', '\nZ\n') : original;
          const options: ApplyHunksOptions = { fuzzFactor: fuzzy ? 2 : 0, comparison: fuzzy ? 'ignore-whitespace' : 'exact', ending: '\n' };
          expect(ours(source, patch, options)).toBe(jsdiff(source, patch, fuzzy));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('a pure insertion that fits past the end of a drifted file pads with empty lines, as jsdiff does', () => {
    // Found by the property above (seed 2095842267): the first hunk fits 3 lines late, so the second lands 2 lines past the end.
    const original = 'a\na\nb\na\na\n';
    const patch = structuredPatch('f', 'f', original, 'b\na\na\n\n', '', '', { context: 0 });
    const source = 'a\nZ\na\nb\na\na\n';
    expect(applyHunks(source, patch, { fuzzFactor: 0, comparison: 'exact', ending: '\n' })).toBe('a\nZ\na\nb\n\n\n\n');
    expect(jsdiff(source, patch, false)).toBe('a\nZ\na\nb\n\n\n\n');
  });

  test('in a CRLF file, lines no hunk removes keep their bytes and added lines get CRLF; a lone CR stays inside its line', () => {
    const source = 'one\r\ntwo\nthree\r\nfour\rfour\r\nfive\r\n';
    const patch = structuredPatch('f', 'f', 'one\ntwo\nthree\nfour\rfour\nfive\n', 'one\ntwo\nTHREE\nfour\rfour\nfive\nsix\n', '', '', {
      context: 1,
    });
    expect(applyHunks(source, patch, { fuzzFactor: 0, comparison: 'exact', ending: '\r\n' })).toBe(
      'one\r\ntwo\nTHREE\r\nfour\rfour\r\nfive\r\nsix\r\n',
    );
  });
});
