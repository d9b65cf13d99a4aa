// A tool's Markdown result shows formatted in chat (headings, lists, emphasis, tables, code), rendered here as VS Code
// renders chat Markdown (marked, GFM), and nothing in it can link, load an image, or bring HTML.
import * as assert from 'assert';
import { toolResultToMarkdown } from '../../src/core/features/chat/contentMarkdown.lazy';
import { looksLikeMarkdown, MAX_MARKDOWN_CHARS, safeMarkdown } from '../../src/core/presentation/safeMarkdown';

async function render(markdown: string): Promise<string> {
  const { marked } = await import('marked');
  return marked.parse(markdown, { gfm: true, async: false }) as string;
}

const tags = (html: string) => [...html.matchAll(/<([a-z][a-z0-9]*)\b/gi)].map((m) => m[1].toLowerCase());

describe('Markdown tool results', () => {
  const REPORT = '# Weather\n\n- **Berlin**: 21 °C, sunny\n- **Oslo**: 12 °C\n\n| city | °C |\n|---|---|\n| Berlin | 21 |\n\nRun `npm test` first.\n\n```js\nconst a = [1](2);\n```\n';

  it('shows a Markdown result formatted in chat, not as raw text in a code block', async () => {
    const html = await render(toolResultToMarkdown({ content: [{ type: 'text', text: REPORT }] }));
    assert.match(html, /<h4>Weather<\/h4>/, html);
    assert.match(html, /<li><strong>Berlin<\/strong>: 21 °C, sunny<\/li>/);
    assert.match(html, /<table>/);
    assert.match(html, /<code>npm test<\/code>/);
    assert.match(html, /<pre><code class="language-js">const a = \[1\]\(2\);\n<\/code><\/pre>/);
  });

  it('keeps plain text, JSON and logs as written, in a code block', async () => {
    for (const text of ['The sum of 2 and 3 is 5.', '{"a": 1}', 'line one\n# not a heading alone']) {
      assert.strictEqual(looksLikeMarkdown(text), false, text);
      assert.match(await render(toolResultToMarkdown({ content: [{ type: 'text', text }] })), /^<pre><code>/);
    }
    assert.strictEqual(looksLikeMarkdown(`# a\n- b\n${'x'.repeat(MAX_MARKDOWN_CHARS)}`), false, 'too long to format');
  });

  it('lets the text link, load or inject nothing, and reads as the characters it is', async () => {
    const hostile = [
      '# Title',
      '- [click](command:workbench.action.terminal.new) and [x][ref] and <https://evil.example>',
      '- ![pixel](https://evil.example/p.png) <img src=x onerror=alert(1)> <script>alert(1)</script>',
      '- https://evil.example/a www.evil.example mail@evil.example &#x202e;&lt;b&gt; \u202eflipped',
      '[ref]: https://evil.example/ref',
      '`` ` `` and `unclosed [a](b)',
      '```',
      'open fence with [a](https://evil.example)',
    ].join('\n');
    const markdown = safeMarkdown(hostile);
    const html = await render(markdown);
    assert.deepStrictEqual(tags(html).filter((t) => ['a', 'img', 'script', 'iframe', 'style', 'h1', 'h2', 'h3'].includes(t)), [], html);
    // What it says is still there, to read.
    assert.match(html, /\[click\]\(command:workbench\.action\.terminal\.new\)/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /https:\/\/evil\.example\/a www\.evil\.example mail@evil\.example &amp;#x202e;/);
    assert.ok(!html.includes('\u202e'), 'no bidi control');
    // The fence left open is closed: nothing after the result is swallowed into it.
    assert.match(markdown, /\n```$/);
  });

  it('is linear in the length of the text', () => {
    const started = Date.now();
    safeMarkdown('`'.repeat(40_000) + 'a' + '``'.repeat(5_000));
    safeMarkdown('[' .repeat(50_000));
    safeMarkdown('# x\n'.repeat(12_000));
    assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
  });
});
