import { InvalidParametersError } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { splitCommand } from './index.js';

describe('splitCommand', () => {
  it.each([
    ['ls -la src', ['ls', '-la', 'src']],
    ['  ls \t  -la  ', ['ls', '-la']],
    [`grep -rn "TODO: fix" lib`, ['grep', '-rn', 'TODO: fix', 'lib']],
    ["echo 'single $(quoted) `x` ; | > ${y}'", ['echo', 'single $(quoted) `x` ; | > ${y}']],
    [`echo "a;b" "c && d" "e|f" "g > h" "(i)"`, ['echo', 'a;b', 'c && d', 'e|f', 'g > h', '(i)']],
    [`echo a\\ b c\\;d \\$HOME \\\`x\\\``, ['echo', 'a b', 'c;d', '$HOME', '`x`']],
    [`echo "say \\"hi\\"" "back\\\\slash" "keep\\n"`, ['echo', 'say "hi"', 'back\\slash', 'keep\\n']],
    [`echo '' ""`, ['echo', '', '']],
    [`echo ab'cd'"ef"`, ['echo', 'abcdef']],
    [`echo "multi\nline" 'and\nthis'`, ['echo', 'multi\nline', 'and\nthis']],
    ['find . -name *.ts -exec wc -l {} \\;', ['find', '.', '-name', '*.ts', '-exec', 'wc', '-l', '{}', ';']],
    ['echo ~ {a,b} price$ $ 5$', ['echo', '~', '{a,b}', 'price$', '$', '5$']],
    ['git log --format=#%h', ['git', 'log', '--format=#%h']],
    ['env', ['env']],
  ])('splits %j', (command, expected) => {
    expect(splitCommand(command)).toEqual(expected);
  });

  it.each([
    ['ls; rm -rf /', 'the command separator `;`'],
    ['ls && rm x', 'the command list operator `&&`'],
    ['ls || rm x', 'the command list operator `||`'],
    ['sleep 5 &', 'the background operator `&`'],
    ['cat x | sh', 'the pipe `|`'],
    ['cat x |& sh', 'the pipe `|&`'],
    ['echo x > /etc/passwd', 'the redirection `>`'],
    ['echo x >> log', 'the redirection `>>`'],
    ['cat < /etc/shadow', 'the redirection `<`'],
    ['cat <<EOF', 'the here-document `<<`'],
    ['cat <<<word', 'the here-document `<<`'],
    ['ls 2>&1', 'the redirection `>&`'],
    ['ls &> out', 'the redirection `&>`'],
    ['ls 2>/dev/null', 'the redirection `>`'],
    ['diff <(ls a) <(ls b)', 'the process substitution `<(`'],
    ['tee >(sh)', 'the process substitution `>(`'],
    ['(rm -rf /)', 'a subshell `(`'],
    ['echo $(id)', 'a command substitution `$(`'],
    ['echo "$(id)"', 'a command substitution `$(`'],
    ['echo $((1+2))', 'a command substitution `$(`'],
    ['echo `id`', 'a backtick command substitution'],
    ['echo "`id`"', 'a backtick command substitution'],
    ['echo ${HOME}', 'a parameter expansion `${`'],
    ['echo "${PATH:-x}"', 'a parameter expansion `${`'],
    ['echo $HOME', 'a shell expansion `$`'],
    ['echo "$OPENAI_API_KEY"', 'a shell expansion `$`'],
    ['echo $1 $@', 'a shell expansion `$`'],
    ["echo $'\\x41'", 'a shell expansion `$`'],
    ['ls\nrm -rf /', 'a newline (a command separator)'],
    ['ls\r rm', 'a carriage return'],
    ['echo "a\rb"', 'a carriage return'],
    ['ls\0rm', 'a NUL byte'],
    ['ls \\\nrm', 'a line continuation (backslash-newline)'],
    ['ls # comment', 'a comment `#`'],
    ['PATH=/tmp/evil ls', 'an environment assignment `NAME=value` before the program'],
    ['ls \\', 'a trailing backslash'],
  ])('refuses %j naming the construct', (command, construct) => {
    let error: unknown;
    try {
      splitCommand(command, { hint: 'Use shell_UNSAFE.' });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidParametersError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'invalid_input', parameter: 'command' });
    expect((error as Error).message).toContain(construct);
    expect((error as Error).message).toContain('Use shell_UNSAFE.');
  });

  it('refuses unterminated quotes, empty commands and non-strings', () => {
    expect(() => splitCommand('echo "open')).toThrow('unterminated double quote');
    expect(() => splitCommand("echo 'open")).toThrow('unterminated single quote');
    expect(() => splitCommand('   ')).toThrow('is empty');
    expect(() => splitCommand(42 as unknown as string, { parameter: 'args' })).toThrow('Expected `args` to be a string, got number.');
  });
});
