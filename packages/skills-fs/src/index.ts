import type { SkillFamily } from '@nexus/core';
import { appendFileSkill } from './skills/append-file.js';
import { copyFileSkill } from './skills/copy-file.js';
import { editFileSkill } from './skills/edit-file.js';
import { editLinesSkill } from './skills/edit-lines.js';
import { fileInfoSkill } from './skills/file-info.js';
import { globSkill } from './skills/glob.js';
import { grepSkill } from './skills/grep.js';
import { listDirectorySkill } from './skills/list-directory.js';
import { mkdirSkill } from './skills/mkdir.js';
import { patchSkill } from './skills/patch.js';
import { readFileSkill } from './skills/read-file.js';
import { regexReplaceSkill } from './skills/regex-replace.js';
import { renameSkill } from './skills/rename.js';
import { tailSkill } from './skills/tail.js';
import { writeFileSkill } from './skills/write-file.js';

/** The fifteen file skills, read-only ones first. Use with `registry.use(fsSkills)`. */
export const fsSkills: SkillFamily = {
  name: 'fs',
  skills: [
    readFileSkill,
    tailSkill,
    fileInfoSkill,
    listDirectorySkill,
    globSkill,
    grepSkill,
    writeFileSkill,
    editFileSkill,
    editLinesSkill,
    appendFileSkill,
    regexReplaceSkill,
    patchSkill,
    copyFileSkill,
    mkdirSkill,
    renameSkill,
  ],
};

export type { ChunkReader } from './chunk-reader.js';
export type { FileSkillDefinition, OpenedFile } from './file-sandbox.js';
export { defineFileSkill, FileSandbox, StaleFileError } from './file-sandbox.js';
export type { FileSkillOptions, GrepEngine, ResolvedFileSkillOptions } from './file-skill-options.js';
export { resolveFileSkillOptions } from './file-skill-options.js';
export type { FileVersion, ReadState, ReadTracker } from './read-tracker.js';
export { fileVersion, InMemoryReadTracker } from './read-tracker.js';
export type { AppendFileArgs } from './skills/append-file.js';
export type { CopyFileArgs } from './skills/copy-file.js';
export type { EditFileArgs } from './skills/edit-file.js';
export type { EditLinesArgs } from './skills/edit-lines.js';
export type { FileInfoArgs } from './skills/file-info.js';
export type { GlobArgs } from './skills/glob.js';
export type { GrepArgs } from './skills/grep.js';
export type { ListDirectoryArgs } from './skills/list-directory.js';
export type { MkdirArgs } from './skills/mkdir.js';
export type { PatchArgs } from './skills/patch.js';
export type { ReadFileArgs } from './skills/read-file.js';
export type { RegexReplaceArgs } from './skills/regex-replace.js';
export type { RenameArgs } from './skills/rename.js';
export type { TailArgs } from './skills/tail.js';
export type { WriteFileArgs } from './skills/write-file.js';
export type { LineEdit, StringEdit } from './text-edits.js';
export {
  appendFileSkill,
  copyFileSkill,
  editFileSkill,
  editLinesSkill,
  fileInfoSkill,
  globSkill,
  grepSkill,
  listDirectorySkill,
  mkdirSkill,
  patchSkill,
  readFileSkill,
  regexReplaceSkill,
  renameSkill,
  tailSkill,
  writeFileSkill,
};
