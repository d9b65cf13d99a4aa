// The README and docs/*.md link into each other (the README is the first page; the reference moved to docs/): every
// relative link must reach a file, and every #anchor a heading of that file, as GitHub names headings. Also what
// others read in the README: the test command CI runs, a page a newcomer reads in five minutes.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, … */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of withoutFences(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** The text outside fenced code blocks, where a heading is a heading. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '``');
}

/** Every link and picture of the file that is not to another site: its text position and target. */
function relativeLinks(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z][a-z+.-]*:/i.test(t));
}

describe('the README and docs/ link to each other soundly', () => {
  const pages = ['README.md', ...fs.readdirSync(path.join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

  it('reaches a file with every relative link, and a heading with every #anchor', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const target of relativeLinks(read(page))) {
        checked++;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file ? path.normalize(path.join(path.dirname(page), decodeURIComponent(file))) : page;
        if (!fs.existsSync(path.join(repoRoot, resolved))) {
          broken.push(`${page}: ${target} (no ${resolved})`);
          continue;
        }
        if (anchor !== undefined && !(resolved.endsWith('.md') && anchorsOf(read(resolved)).has(anchor))) broken.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    assert.deepStrictEqual(broken, []);
    assert.ok(checked > 50, `${checked} links checked`);
  });

  it('finds a broken anchor and a missing file (the check itself)', () => {
    assert.deepStrictEqual([...anchorsOf('# A `b.json` title\n## Chat: prompts and tools (`@mcp`)\n## Tasks\n## Tasks\n```\n# not a heading\n```\n')], [
      'a-bjson-title',
      'chat-prompts-and-tools-mcp',
      'tasks',
      'tasks-1',
    ]);
    assert.deepStrictEqual(relativeLinks('[a](docs/x.md#y) ![p](media/p.png) [w](https://example.com) `[c](not/a/link)`'), ['docs/x.md#y', 'media/p.png']);
  });

  it('keeps the README a first page: Quick start and everyday use, the reference linked', () => {
    const readme = read('README.md');
    assert.ok(Buffer.byteLength(readme) < 25_000, `README.md is ${Buffer.byteLength(readme)} bytes`);
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepStrictEqual(sections.slice(0, 2), ['Quick start', 'Everyday use']);
    for (const doc of pages.filter((p) => p !== 'README.md')) assert.ok(readme.includes(`](${doc})`), `the README links ${doc}`);
  });

  it("states the test command exactly as CI runs it", () => {
    const ci = read('.ci/run').trim().split('\n').pop()!;
    assert.strictEqual(ci, 'npm ci && npm test');
    assert.ok(read('README.md').includes(`\`${ci}\``), 'the README names the command CI runs');
  });
});
