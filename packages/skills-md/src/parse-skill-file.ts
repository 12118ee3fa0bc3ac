import { type Document, isAlias, isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { MAX_YAML_ALIAS_COUNT, type SkillFile } from './read-skill-file.js';
import { FILE_START, type FilePosition } from './skill-diagnostic.js';
import { SkillFileError } from './skill-file-error.js';

const FENCE = /^---[ \t]*$/;
const END = /^(---|\.\.\.)[ \t]*$/;

/** The first line of a `yaml` error message, without its trailing "at line …, column …:". */
function reasonOf(error: { message: string }): string {
  return (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
}

/** Where the first alias of `document` is, for an alias bomb's diagnostic. */
function firstAlias(document: Document, lines: LineCounter): FilePosition | undefined {
  let offset: number | undefined;
  visit(document, {
    Alias(_key, node) {
      if (isAlias(node) && node.range) {
        offset = node.range[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (offset === undefined) return undefined;
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

/** A parsed YAML mapping, and where each value is (its nearest existing parent when it is absent). */
export interface ParsedYaml {
  readonly data: Record<string, unknown>;
  locate(path: readonly PropertyKey[]): FilePosition;
  textAt(path: readonly PropertyKey[]): string | undefined;
}

/**
 * Parses `yaml` — the frontmatter of `file` starting at its line `firstLine`, or a whole YAML file
 * (`firstLine` 1) — as a mapping, with unique keys and an alias-expansion limit; `what` names it in
 * errors ("the frontmatter"). Every problem is a {@link SkillFileError} at its line and column.
 */
export function parseYamlMapping(file: string, yaml: string, firstLine: number, what: string): ParsedYaml {
  const counter = new LineCounter();
  const position = (offset: number): FilePosition => {
    const { line, col } = counter.linePos(offset);
    return { line: line + firstLine - 1, column: col };
  };
  const document = parseDocument(yaml, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const [error] = document.errors;
  if (error) throw new SkillFileError(file, position(error.pos[0]), `${what} is not valid YAML: ${reasonOf(error)}`);
  const start = { line: firstLine, column: 1 };
  if (!isMap(document.contents)) throw new SkillFileError(file, start, `${what} must be a YAML mapping of keys to values`);
  let data: Record<string, unknown>;
  try {
    data = document.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT }) as Record<string, unknown>;
  } catch (cause) {
    const alias = firstAlias(document, counter);
    const at = alias ? { line: alias.line + firstLine - 1, column: alias.column } : start;
    throw new SkillFileError(file, at, `${what}'s aliases expand too much (a YAML alias bomb): ${reasonOf(cause as Error)}`, {
      cause,
    });
  }
  return {
    data,
    locate(path) {
      for (let depth = path.length; depth >= 0; depth--) {
        const node = document.getIn(path.slice(0, depth) as unknown[], true) as { range?: [number, number, number] } | undefined;
        if (node?.range) return position(node.range[0]);
      }
      return start;
    },
    textAt(path) {
      const node = document.getIn(path as unknown[], true);
      return isScalar(node) ? node.source : undefined;
    },
  };
}

/**
 * Splits the text of a `SKILL.md` into frontmatter and body and parses the frontmatter (YAML,
 * between a first line `---` and the next `---` or `...` line). Every problem is a
 * {@link SkillFileError} naming the file, line and column: no frontmatter or no closing line,
 * YAML that does not parse or repeats a key, an alias bomb, frontmatter that is not a mapping.
 */
export function parseSkillFile(file: string, text: string): SkillFile {
  const lines = text.split('\n');
  if (!FENCE.test((lines[0] ?? '').replace(/\r$/, ''))) {
    throw new SkillFileError(file, FILE_START, 'SKILL.md must start with a YAML frontmatter block: a first line `---`');
  }
  const end = lines.findIndex((line, index) => index > 0 && END.test(line.replace(/\r$/, '')));
  if (end === -1) throw new SkillFileError(file, FILE_START, 'the frontmatter has no closing `---` line');
  const yaml = lines
    .slice(1, end)
    .map((line) => line.replace(/\r$/, ''))
    .join('\n');
  // The frontmatter starts on the file's second line.
  const parsed = parseYamlMapping(file, yaml, 2, 'the frontmatter');
  return {
    file,
    frontmatter: parsed.data,
    body: lines.slice(end + 1).join('\n'),
    locate: (path) => parsed.locate(path),
    textAt: (path) => parsed.textAt(path),
  };
}
