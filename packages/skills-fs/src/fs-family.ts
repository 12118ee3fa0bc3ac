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
