// Where a package keeps the files Nexus reads besides SKILL.md, apart from the modules that read
// them, so that listing packages loads neither the YAML parser nor a script host.
import { join } from 'node:path';

/**
 * Where a package may keep the keys only Nexus reads (`command`, `parameters`, `commands`, …),
 * beside `SKILL.md`, so that `SKILL.md` keeps to the portable keys every client accepts — as Codex
 * keeps its extras in `agents/openai.yaml`.
 */
export const SIDE_FILE = join('agents', 'nexus.yaml');

/** Where a package's Python commands live, relative to its folder (seed 004). */
export const PYTHON_COMMANDS_FILE = join('scripts', 'commands.py');
