import * as assert from 'assert';
import { LineSplitter } from '../../src/core/protocol/connection/lineSplitter.lazy';

function split(chunks: Buffer[], maxLineBytes = 1024) {
  const lines: string[] = [];
  const overflows: string[] = [];
  const splitter = new LineSplitter({
    maxLineBytes,
    onLine: (l) => lines.push(l.toString('utf8')),
    onOverflow: (head) => overflows.push(head.toString('utf8')),
  });
  for (const c of chunks) splitter.push(c);
  splitter.end();
  return { lines, overflows };
}

describe('LineSplitter', () => {
  it('splits on newlines, drops a trailing \\r, and keeps an unfinished last line', () => {
    assert.deepStrictEqual(split([Buffer.from('a\r\nb\nc')]).lines, ['a', 'b', 'c']);
    assert.deepStrictEqual(split([Buffer.from('a\n\nb\n')]).lines, ['a', '', 'b']);
  });

  it('joins a line from many chunks, and decodes UTF-8 characters split across chunks', () => {
    const bytes = Buffer.from('zwölf € 😀\n', 'utf8');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    assert.deepStrictEqual(split(chunks).lines, ['zwölf € 😀']);
  });

  it('cuts a line over the cap once, keeps only its head, and drops the rest until its newline', () => {
    const { lines, overflows } = split([Buffer.from('x'.repeat(10)), Buffer.from('y'.repeat(10)), Buffer.from('z\nnext\n')], 15);
    assert.deepStrictEqual(overflows, ['xxxxxxxxxxyyyyy']);
    assert.deepStrictEqual(lines, ['next']);
  });

  it('a line of exactly the cap is a line, not an overflow', () => {
    const { lines, overflows } = split([Buffer.from('abcde\n')], 5);
    assert.deepStrictEqual(lines, ['abcde']);
    assert.deepStrictEqual(overflows, []);
  });
});
