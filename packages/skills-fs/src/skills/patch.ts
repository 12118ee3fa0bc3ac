import { lstat, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InvalidParametersError, SkillExecutionError, ToolResult, withFileLocks } from '@nexus/core';
import { parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { applyHunks, HunkMismatch } from '../apply-hunks.js';
import { describeChange, summarizeChange } from '../change-summary.js';
import { defineFileSkill } from '../define-file-skill.js';
import { EditConflictError } from '../edit-conflict-error.js';
import type { FileSandbox } from '../file-sandbox.js';
import { ABSENT, type FileSnapshot } from '../file-snapshot.js';
import { makeDirectories } from '../make-directories.js';
import type { LengthLimit } from '../text-builder.js';
import { editLimit, encodeText, loadApprovedTextFile, saveFile } from '../text-file.js';

/** Arguments of `patch`. */
export interface PatchArguments {
  target: string;
  diff?: string;
  diff_file?: string;
  mode?: 'strict' | 'fuzzy';
  dry_run?: boolean;
}

/** One file's planned change. */
interface PlannedChange {
  path: string;
  display: string;
  /** The text before, `undefined` for a new file. */
  before: string | undefined;
  after: string;
  /** `after` as it is written (a result past `maxEditBytes` is refused before anything is written). */
  bytes: Buffer;
  /** Whether the file starts with a UTF-8 BOM (kept). */
  bom: boolean;
  /** What was read, for the compare-and-swap of the write. */
  snapshot: FileSnapshot;
}

const DEV_NULL = '/dev/null';

function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined || name === DEV_NULL) return undefined;
  const clean = name.split('\t')[0]?.trim() ?? '';
  return clean.replace(/^[ab]\//, '');
}

function hunkHeader(hunk: StructuredPatchHunk): string {
  return `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
}

/** Applies the hunks to `text`; a hunk that fits nowhere is named, and nothing is changed. */
function patchText(
  text: string,
  patch: StructuredPatch,
  fuzzy: boolean,
  display: string,
  limit: LengthLimit,
  ending: '\n' | '\r\n',
): string {
  try {
    return applyHunks(text, patch, { fuzzFactor: fuzzy ? 2 : 0, comparison: fuzzy ? 'ignore-whitespace' : 'exact', ending, limit });
  } catch (error) {
    if (!(error instanceof HunkMismatch)) throw error;
    const hunk = patch.hunks[error.hunk] as StructuredPatchHunk;
    const expected = hunk.lines
      .filter((line) => !line.startsWith('+'))
      .slice(0, 12)
      .join('\n');
    throw new InvalidParametersError(
      `Hunk ${error.hunk + 1} of ${patch.hunks.length} for ${display} (${hunkHeader(hunk)}) does not apply: these lines were not found${fuzzy ? ', even ignoring whitespace' : ''}:\n${expected}\n` +
        `Nothing was changed. Read the file again and regenerate the diff${fuzzy ? '' : ', or try mode="fuzzy"'}.`,
      { parameter: 'diff' },
    );
  }
}

async function planChange(
  files: FileSandbox,
  real: string,
  patch: StructuredPatch,
  fuzzy: boolean,
  parameter: string,
): Promise<PlannedChange> {
  const display = await files.paths.display(real);
  const limit = editLimit(files, display, 'diff');
  if (patch.newFileName === DEV_NULL) {
    throw new InvalidParametersError(`The diff deletes ${display}; patch does not delete files.`, { parameter: 'diff' });
  }
  if (patch.oldFileName === DEV_NULL) {
    if (
      await lstat(real).then(
        () => true,
        () => false,
      )
    )
      throw new InvalidParametersError(`The diff creates ${display}, which already exists.`, { parameter: 'diff' });
    const after = patchText('', patch, fuzzy, display, limit, '\n');
    return { path: real, display, before: undefined, after, bytes: encodeText(after, false, limit), bom: false, snapshot: ABSENT };
  }
  const file = await loadApprovedTextFile(files, real, { parameter });
  const after = patchText(file.text, patch, fuzzy, display, limit, file.lineEnding === '\r\n' ? '\r\n' : '\n');
  return {
    path: file.path,
    display,
    before: file.text,
    after,
    bytes: encodeText(after, file.bom, limit),
    bom: file.bom,
    snapshot: file.snapshot,
  };
}

/** Writes every planned change; if one write fails, the ones already written are put back. */
async function commitAll(files: FileSandbox, changes: readonly PlannedChange[]): Promise<void> {
  const done: PlannedChange[] = [];
  try {
    for (const change of changes) {
      if (change.before === undefined) await makeDirectories(files, dirname(change.path), { parameter: 'diff' });
      await saveFile(files, change.path, change.bytes, { expected: change.snapshot });
      done.push(change);
    }
  } catch (error) {
    for (const change of done.reverse()) {
      if (change.before !== undefined) {
        const bytes = encodeText(change.before, change.bom, editLimit(files, change.display, 'diff'));
        await saveFile(files, change.path, bytes).catch(() => {});
      } else {
        const directory = await files.opener.openDirectory(dirname(change.path));
        await unlink(directory.entry(basename(change.path))).catch(() => {});
        await directory.close();
      }
    }
    if (EditConflictError.isInstance(error) || InvalidParametersError.isInstance(error)) throw error;
    throw new SkillExecutionError('patch', `a write failed, and the files already written were restored: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** `patch`: apply a unified diff to one or more files, all or nothing. */
export const patchSkill = defineFileSkill<PatchArguments>({
  name: 'patch',
  title: 'Apply patch',
  description:
    'Apply a unified diff (as made by diff -u or git diff). target is the file to patch, or for a diff naming several files the directory their paths are relative to (a/ and b/ prefixes are stripped). ' +
    'Give the diff inline (diff) or as a file (diff_file). mode="strict" (default) needs the context to match exactly (hunks may have moved); "fuzzy" also ignores whitespace and tolerates up to 2 changed context lines. ' +
    'All files are patched or none; a failing hunk is named. dry_run=true shows the result without writing. New files (--- /dev/null) are created; deletions are refused.',
  readOnly: false,
  destructive: true,
  parameters: {
    type: 'object',
    properties: {
      target: { type: 'string', description: 'File to patch, or the base directory of a multi-file diff.' },
      diff: { type: 'string', minLength: 1, description: 'The unified diff text.' },
      diff_file: { type: 'string', description: 'Path of a file holding the diff (instead of diff).' },
      mode: { type: 'string', enum: ['strict', 'fuzzy'], default: 'strict', description: 'How exactly the context must match.' },
      dry_run: { type: 'boolean', default: false, description: 'Only show what would change.' },
    },
    required: ['target'],
    additionalProperties: false,
  },
  run: async ({ target, diff, diff_file: diffFile, mode = 'strict', dry_run: dryRun = false }, files, { signal }) => {
    if ((diff === undefined) === (diffFile === undefined)) {
      throw new InvalidParametersError('Give exactly one of `diff` (the diff text) and `diff_file` (a path to it).', {
        parameter: diff === undefined ? 'diff' : 'diff_file',
      });
    }
    let text = diff;
    if (text === undefined) {
      const opened = await files.opener.openFile(diffFile as string, { parameter: 'diff_file' });
      try {
        text = (await opened.handle.readFile()).toString('utf8');
      } finally {
        await opened.handle.close();
      }
    }
    let patches: StructuredPatch[];
    try {
      patches = parsePatch(text).filter((patch) => patch.hunks.length > 0);
    } catch (error) {
      throw new InvalidParametersError(
        `\`${diff === undefined ? 'diff_file' : 'diff'}\` is not a valid unified diff: ${(error as Error).message}`,
        { parameter: diff === undefined ? 'diff_file' : 'diff' },
      );
    }
    if (patches.length === 0) {
      const parameter = diff === undefined ? 'diff_file' : 'diff';
      throw new InvalidParametersError(`\`${parameter}\` holds no hunks (no "@@ -a,b +c,d @@" sections); give a unified diff.`, {
        parameter,
      });
    }
    const targetReal = await files.paths.authorize(target, { access: 'write', parameter: 'target' });
    const targetIsDirectory = await stat(targetReal).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    if (patches.length > 1 && !targetIsDirectory)
      throw new InvalidParametersError('The diff changes several files, so `target` must be the directory their paths are relative to.', {
        parameter: 'target',
      });
    const targets: string[] = [];
    for (const patch of patches) {
      let real = targetReal;
      if (targetIsDirectory) {
        const name = stripPrefix(patch.newFileName) ?? stripPrefix(patch.oldFileName);
        if (!name) throw new InvalidParametersError('A file section of the diff names no file.', { parameter: 'diff' });
        real = await files.paths.authorize(join(targetReal, name), { access: 'write', parameter: 'diff' });
      }
      if (targets.includes(real))
        throw new InvalidParametersError(`The diff changes ${await files.paths.display(real)} twice; merge those sections.`, {
          parameter: 'diff',
        });
      targets.push(real);
    }
    // Every file stays locked from its read to its write, so the patch applies to what is on disk.
    const patchAll = async () => {
      const fuzzy = mode === 'fuzzy';
      const changes: PlannedChange[] = [];
      for (const [index, patch] of patches.entries())
        changes.push(await planChange(files, targets[index] as string, patch, fuzzy, targetIsDirectory ? 'diff' : 'target'));
      const summaries = changes.map(
        (change) => `${change.display} ${describeChange(summarizeChange(change.display, change.before ?? '', change.after))}`,
      );
      const data = { files: changes.map((change) => change.display), dryRun };
      if (dryRun)
        return ToolResult.ok(`Dry run, nothing written. The diff applies to ${changes.length} file(s):\n${summaries.join('\n')}`, data);
      await commitAll(files, changes);
      return ToolResult.ok(`Patched ${changes.length} file(s):\n${summaries.join('\n')}`, data);
    };
    return dryRun ? patchAll() : withFileLocks(targets, patchAll, { signal });
  },
});
