import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkillFile } from './parse-skill-file.js';
import { scanFrontmatter } from './scan-frontmatter.js';
import { SkillFileError } from './skill-file-error.js';

/** What the YAML parser reads for the keys the scan reports, or undefined when the file does not parse. */
function parsed(text: string) {
  try {
    const { frontmatter } = parseSkillFile('/x/SKILL.md', text);
    return frontmatter;
  } catch (error) {
    if (SkillFileError.isInstance(error)) return undefined;
    throw error;
  }
}

/**
 * The scan either says nothing or says what the parser reads. (Where another key's value does not
 * parse, the parser refuses the whole file; the scan does not look there, and loading the package
 * reports it.)
 */
function expectExactOrNothing(text: string): void {
  const summary = scanFrontmatter(text);
  const frontmatter = parsed(text);
  if (summary === undefined || frontmatter === undefined) return;
  expect(summary.description, text).toBe(frontmatter?.description);
  expect(summary.name, text).toBe(frontmatter?.name);
  expect(summary.routingKeywords, text).toEqual(frontmatter?.routing_keywords ?? []);
  expect(summary.intents, text).toEqual(frontmatter?.intents ?? []);
  expect(summary.command, text).toBe(typeof frontmatter?.command === 'string');
  expect(summary.commands, text).toEqual(Object.keys((frontmatter?.commands as object | undefined) ?? {}));
  expect(summary.hiddenFromModel, text).toBe(frontmatter?.['disable-model-invocation'] === true);
}

const file = (frontmatter: string) => `---\n${frontmatter}\n---\nBody.\n`;

describe('scanFrontmatter', () => {
  it('reads the forms packages use, exactly as the YAML parser does', () => {
    const common = [
      'name: pdf-tools\ndescription: Convert PDF files; merge, split and compress them.',
      `name: "pdf-tools"\ndescription: 'It''s a converter: PDF → HTML'\nlicense: MIT`,
      'description: Plain text # a comment\nrouting_keywords: [pdf, convert, "merge"]\nintents:\n  - merge documents\n  - split a PDF',
      'name: conv\ndescription: Converts.\ncommand: "python scripts/convert.py {input} --to {format}"\nparameters:\n  input: { type: path, required: true }\n  format: { type: string, enum: [html, pdf] }',
      'name: multi\ndescription: Has commands.\ncommands:\n  convert:\n    command: "sh x.sh {a}"\n    parameters:\n      a: { type: string }\n  preview:\n    command: "sh y.sh"\nmetadata:\n  owner: team',
      'name: x\r\ndescription: Windows line endings.\r',
      'name: deploy\ndescription: Deploys.\ndisable-model-invocation: true',
      'name: deploy\ndescription: Deploys.\ndisable-model-invocation: false',
    ];
    for (const frontmatter of common) {
      expect(scanFrontmatter(file(frontmatter)), frontmatter).toBeDefined();
      expectExactOrNothing(file(frontmatter));
    }
  });

  it('gives up on forms it cannot read for certain, so the parser decides', () => {
    const unsure = [
      'name: x\ndescription: >\n  folded\n  text',
      'name: x\ndescription: first line\n  continued',
      'name: x\ndescription: "escaped \\" quote"',
      'name: &anchor x\ndescription: d',
      'name: 123\ndescription: d',
      'name: true\ndescription: d',
      'name: x\ndescription: d\ndisable-model-invocation: True',
      'name: x\ndescription: d\ndisable-model-invocation: yes',
      'name: x\ndescription: ""',
      'name: x\nname: y\ndescription: d',
      'name: x',
      'name: x\ndescription: d\ncommands: { a: { command: b } }',
      'name: x\ndescription: d\nintents:',
      'name: x\ndescription: a: b',
      '"name": x\ndescription: d',
      '- not a mapping',
      'name: x\ndescription: d\nintents:\n  - a\n    - b',
    ];
    for (const frontmatter of unsure) expect(scanFrontmatter(file(frontmatter)), frontmatter).toBeUndefined();
    expect(scanFrontmatter('no frontmatter')).toBeUndefined();
    expect(scanFrontmatter('---\nname: x\ndescription: never closed\n')).toBeUndefined();
  });

  it('never disagrees with the parser on generated frontmatter', () => {
    const piece = fc.constantFrom(
      'x',
      'two words',
      '"quoted"',
      "'single'",
      "'it''s'",
      '12',
      '-dash',
      'a: b',
      'a #c',
      'a#c',
      '[a, b]',
      '[]',
      '{a: 1}',
      '&a x',
      '*a',
      '!tag x',
      '|',
      '>-',
      '~',
      'null',
      '.5',
      '',
      '"a\\"b"',
      'x:',
      'é ü',
    );
    const key = fc.constantFrom('name', 'description', 'routing_keywords', 'intents', 'command', 'commands', 'license', 'metadata');
    const child = fc.constantFrom(
      '  - item',
      '  - ',
      '  a: b',
      '  sub:',
      '    deeper: x',
      '  continued text',
      '\t- tab',
      '  # comment',
      '',
    );
    const line = fc.oneof(
      fc.tuple(key, piece).map(([k, v]) => `${k}: ${v}`),
      fc.tuple(key, piece).map(([k, v]) => `${k}:${v}`),
      child,
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => expectExactOrNothing(file(lines.join('\n')))),
      { numRuns: 3000 },
    );
  });
});
