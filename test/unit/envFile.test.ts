import * as assert from 'assert';
import { parseEnvFile } from '../../src/core/config/envFile.lazy';

describe('parseEnvFile', () => {
  const cases: [title: string, text: string, expected: Record<string, string>][] = [
    [
      'reads plain assignments, skipping blank lines and comments',
      ['# a comment', '', 'A=1', '   ', '  # indented comment', 'B = two words ', 'EMPTY=', 'C=3'].join('\n'),
      { A: '1', B: 'two words', EMPTY: '', C: '3' },
    ],
    ['accepts the export prefix', 'export TOKEN=abc\nexport  OTHER="x"', { TOKEN: 'abc', OTHER: 'x' }],
    ['keeps single-quoted values literally', "A='a \\n b # not a comment'\nB='  spaced  '", { A: 'a \\n b # not a comment', B: '  spaced  ' }],
    [
      'expands escapes in double-quoted values',
      'A="line1\\nline2"\nB="tab\\there \\"quoted\\" back\\\\slash"\nC="\\d stays"',
      { A: 'line1\nline2', B: 'tab\there "quoted" back\\slash', C: '\\d stays' },
    ],
    ['reads quoted values over several lines', 'KEY="-----BEGIN-----\nabc\n-----END-----"\nNEXT=1', { KEY: '-----BEGIN-----\nabc\n-----END-----', NEXT: '1' }],
    [
      'treats # after whitespace as a comment, but keeps # inside a value',
      'A=value # comment\nB=pa#ss\nC="quoted" # comment\nD=#only-comment\nE=http://h/#frag',
      { A: 'value', B: 'pa#ss', C: 'quoted', D: '', E: 'http://h/#frag' },
    ],
    ['handles CRLF line endings, a BOM, and later assignments overriding earlier ones', '\uFEFFA=1\r\nB="x"\r\nA=2\r\n', { A: '2', B: 'x' }],
    ['ignores lines that assign nothing and keeps an unterminated quote as text', 'just words\n=novalue\nA="unterminated\nB=ok', { A: '"unterminated', B: 'ok' }],
    ['accepts dots and dashes in names', 'my.var-1=x', { 'my.var-1': 'x' }],
  ];

  for (const [title, text, expected] of cases) {
    it(title, () => assert.deepStrictEqual(parseEnvFile(text), expected));
  }
});
