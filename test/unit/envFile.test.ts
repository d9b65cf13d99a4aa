import * as assert from 'assert';
import { parseEnvFile } from '../../src/core/config/envFile';

describe('parseEnvFile', () => {
  it('reads plain assignments, skipping blank lines and comments', () => {
    const text = ['# a comment', '', 'A=1', '   ', '  # indented comment', 'B = two words ', 'EMPTY=', 'C=3'].join('\n');
    assert.deepStrictEqual(parseEnvFile(text), { A: '1', B: 'two words', EMPTY: '', C: '3' });
  });

  it('accepts the export prefix', () => {
    assert.deepStrictEqual(parseEnvFile('export TOKEN=abc\nexport  OTHER="x"'), { TOKEN: 'abc', OTHER: 'x' });
  });

  it('keeps single-quoted values literally', () => {
    assert.deepStrictEqual(parseEnvFile("A='a \\n b # not a comment'\nB='  spaced  '"), { A: 'a \\n b # not a comment', B: '  spaced  ' });
  });

  it('expands escapes in double-quoted values', () => {
    assert.deepStrictEqual(parseEnvFile('A="line1\\nline2"\nB="tab\\there \\"quoted\\" back\\\\slash"\nC="\\d stays"'), {
      A: 'line1\nline2',
      B: 'tab\there "quoted" back\\slash',
      C: '\\d stays',
    });
  });

  it('reads quoted values over several lines', () => {
    assert.deepStrictEqual(parseEnvFile('KEY="-----BEGIN-----\nabc\n-----END-----"\nNEXT=1'), { KEY: '-----BEGIN-----\nabc\n-----END-----', NEXT: '1' });
  });

  it('treats # after whitespace as a comment, but keeps # inside a value', () => {
    assert.deepStrictEqual(parseEnvFile('A=value # comment\nB=pa#ss\nC="quoted" # comment\nD=#only-comment\nE=http://h/#frag'), {
      A: 'value',
      B: 'pa#ss',
      C: 'quoted',
      D: '',
      E: 'http://h/#frag',
    });
  });

  it('handles CRLF line endings, a BOM, and later assignments overriding earlier ones', () => {
    assert.deepStrictEqual(parseEnvFile('\uFEFFA=1\r\nB="x"\r\nA=2\r\n'), { A: '2', B: 'x' });
  });

  it('ignores lines that assign nothing and keeps an unterminated quote as text', () => {
    assert.deepStrictEqual(parseEnvFile('just words\n=novalue\nA="unterminated\nB=ok'), { A: '"unterminated', B: 'ok' });
  });

  it('accepts dots and dashes in names', () => {
    assert.deepStrictEqual(parseEnvFile('my.var-1=x'), { 'my.var-1': 'x' });
  });
});
