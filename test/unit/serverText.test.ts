// Server text through serverText, as VS Code shows it: Markdown rendered with marked (GFM, what VS Code renders hovers
// and chat with; a devDependency for this test), plain text checked against the link and icon syntax VS Code renders
// in notifications and quick inputs.
import * as assert from 'assert';
import { contentToMarkdown, promptToMarkdown, toolResultToMarkdown } from '../../src/core/features/chat/contentMarkdown.lazy';
import { emptyFeatures, type ServerInfo } from '../../src/core/host/serverInfo';
import {
  escapeMarkdown,
  fenced,
  firstLine,
  heading,
  inlineCode,
  labelText,
  markdownLine,
  plainText,
  truncate,
  withoutThemeIcons,
} from '../../src/core/presentation/serverText';
import { resourceTooltip, templateTooltip } from '../../src/core/presentation/resourcePresentation';
import { promptTooltip, serverTooltip, toolTooltip } from '../../src/core/presentation/serverPresentation';
import { workspaceScope } from './hostTestKit';

const COMMAND_LINK = '[x](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)';
const ANCHOR = '<a href="command:x">y</a>';

/** Each alone, then all together: links, HTML, line endings that end spans and paragraphs, backticks, bare links. */
const HOSTILE_PARTS = [
  COMMAND_LINK,
  ANCHOR,
  'a\r\r[x](https://evil.example)',
  'a\r[x](https://evil.example)\rb',
  'x`y``z``` ```` `',
  '```\n[x](https://evil.example)\n```',
  'one\ntwo\r\nthree\n\n[x](https://evil.example)',
  'see https://evil.example, www.evil.example and a@evil.example',
  '![p](https://tracker.example/p.png) <img src=x onerror=alert(1)> <https://evil.example>',
  '# heading\n===\n---\n> quote\n- item\n1. item\n| a | b |\n|---|---|',
  '*em* **strong** _u_ ~~s~~',
  '[ref]\n\n[ref]: https://evil.example',
  '&lt;b&gt; &#91;x&#93;(https://evil.example) \\[x](https://evil.example)',
  '$(zap) $(check~spin)',
];
const HOSTILE = [...HOSTILE_PARTS, HOSTILE_PARTS.join('\n')];

// eslint-disable-next-line no-control-regex -- control characters are exactly what the test looks for
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** VS Code's `parseLinkedText`: what notifications and quick input messages turn into links. */
const LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/** VS Code's icon syntax in labels; a match with the backslash is shown as text. */
const LABEL_ICON = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;

async function render(markdown: string): Promise<string> {
  const { marked } = await import('marked');
  return marked.parse(markdown, { gfm: true, async: false }) as string;
}

const tagsOf = (html: string): string[] => [...html.matchAll(/<([a-z][a-z0-9]*)\b/gi)].map((m) => m[1].toLowerCase());
const hrefsOf = (html: string): string[] => [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/gi)].map((m) => m[1]);

const decode = (html: string): string =>
  html
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** What a reader sees, whitespace collapsed: paragraphs and breaks become spaces. */
const visibleText = (html: string): string => squash(decode(html.replace(/<[^>]*>/g, ' ')));
const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

function assertTags(html: string, allowed: string[], input: string) {
  const unexpected = tagsOf(html).filter((t) => !allowed.includes(t));
  assert.deepStrictEqual(unexpected, [], `${JSON.stringify(input)} rendered as ${html}`);
}

describe('serverText', () => {
  describe('escapeMarkdown', () => {
    it('renders any text as exactly that text: no link, image, HTML, emphasis, heading, list, table or autolink', async () => {
      for (const text of HOSTILE) {
        const html = await render(escapeMarkdown(text));
        assertTags(html, ['p', 'br'], text);
        assert.strictEqual(visibleText(html), squash(text), html);
      }
    });

    it('keeps line breaks, every kind of them, as hard breaks', async () => {
      assert.strictEqual(escapeMarkdown('a\nb\r\nc\rd'), 'a  \nb  \nc  \nd');
      assert.strictEqual(await render(escapeMarkdown('a\nb\rc')), '<p>a<br>b<br>c</p>\n');
    });
  });

  describe('markdownLine', () => {
    it('stays on one line inside bold, list items and link text: the only link is ours', async () => {
      for (const text of HOSTILE) {
        const line = markdownLine(text);
        assert.ok(!/[\r\n]/.test(line));
        const bold = await render(`**${line}**`);
        assertTags(bold, ['p', 'strong'], text);
        assert.strictEqual(tagsOf(bold).filter((t) => t === 'strong').length, 1, bold);
        assert.strictEqual(visibleText(bold), squash(text));
        const item = await render(`- ${line}\n- next`);
        assertTags(item, ['ul', 'li'], text);
        assert.strictEqual(tagsOf(item).filter((t) => t === 'li').length, 2, item);
        const link = await render(`[${line}](command:mcpHost.callTool?%5B%5D)`);
        assert.deepStrictEqual(hrefsOf(link), ['command:mcpHost.callTool?%5B%5D'], link);
      }
    });
  });

  describe('withoutThemeIcons', () => {
    it('leaves no icon of the server’s choosing in a MarkdownString with theme icons', async () => {
      for (const text of HOSTILE) {
        for (const markdown of [escapeMarkdown(text), markdownLine(text)]) {
          // VS Code looks for `$(name)` in the rendered HTML; with the backslash it shows the text instead.
          const html = await render(withoutThemeIcons(markdown));
          for (const m of html.matchAll(LABEL_ICON)) assert.ok(m[1], html);
        }
      }
      assert.strictEqual(await render(withoutThemeIcons(markdownLine('$(zap) and $(check~spin)'))), '<p>\\$(zap) and \\$(check~spin)</p>\n');
      assert.strictEqual(withoutThemeIcons(markdownLine('$5 (not an icon)')), markdownLine('$5 (not an icon)'));
    });
  });

  describe('inlineCode', () => {
    it('keeps any text in one code span on one line, lone \\r and backtick runs included', async () => {
      for (const text of HOSTILE) {
        const html = await render(`before ${inlineCode(text)} after`);
        assertTags(html, ['p', 'code'], text);
        const code = [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map((m) => decode(m[1]));
        assert.strictEqual(code.length, 1, html);
        assert.strictEqual(code[0].trim(), text.replace(/\r\n?|\n/g, ' ').trim());
      }
    });

    it('pads backticks at either end, and an empty text', () => {
      assert.strictEqual(inlineCode('a`b'), '``a`b``');
      assert.strictEqual(inlineCode('`x'), '`` `x ``');
      assert.strictEqual(inlineCode('a\r\rb'), '`a  b`');
      assert.strictEqual(inlineCode(''), '` `');
    });
  });

  describe('fenced', () => {
    it('keeps any text in one code block, fences inside included', async () => {
      for (const text of HOSTILE) {
        const html = await render(`${fenced(text)}\n\nafter`);
        assertTags(html, ['pre', 'code', 'p'], text);
        const code = [...html.matchAll(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((m) => decode(m[1]));
        assert.strictEqual(code.length, 1, html);
        assert.strictEqual(code[0].replace(/\n$/, ''), text.replace(/\r\n?/g, '\n'));
      }
    });
  });

  describe('heading', () => {
    it('shows the display name in bold and the protocol name in code when they differ', async () => {
      assert.strictEqual(heading('Read', 'Read'), '**Read**');
      assert.strictEqual(heading('Read file', 'read_file'), '**Read file** `read_file`');
      for (const text of HOSTILE) {
        const html = await render(heading(text, `${text}!`));
        assertTags(html, ['p', 'strong', 'code'], text);
        assert.deepStrictEqual(hrefsOf(html), []);
      }
    });
  });

  describe('plainText and labelText', () => {
    it('leave no control character, line break or bidi control: nothing can fake a second line', () => {
      for (const text of [...HOSTILE, 'ok\u0000\u0007\u001b[31mred\u009b\u2028next\u2029\u202egnp.exe\u2066x\u2069\ttab\u000b\f']) {
        assert.ok(!CONTROL.test(plainText(text)), JSON.stringify(plainText(text)));
        assert.ok(!CONTROL.test(labelText(text)), JSON.stringify(labelText(text)));
      }
      assert.strictEqual(plainText('one\r\rtwo\nthree\r\n\tfour'), 'one two three four');
    });

    it('form no link in a notification or quick input message', () => {
      for (const text of HOSTILE) {
        assert.deepStrictEqual(plainText(text).match(LINKED_TEXT), null, plainText(text));
        assert.deepStrictEqual(`MCP server "${plainText(text)}": ${plainText(text)}`.match(LINKED_TEXT), null);
      }
      assert.strictEqual(plainText(COMMAND_LINK), '[x] (command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)');
      assert.strictEqual(plainText('[x]\u0000(https://evil.example)'), '[x] (https://evil.example)', 'a control character does not hide the link');
    });

    it('labelText leaves no icon of the server’s choosing in labels', () => {
      for (const text of HOSTILE) for (const m of labelText(text).matchAll(LABEL_ICON)) assert.ok(m[1], labelText(text));
      assert.strictEqual(labelText('$(zap) fast'), '\\$(zap) fast');
      assert.strictEqual(plainText('$(zap) fast'), '$(zap) fast', 'notifications show icon syntax as text anyway');
    });

    it('leave ordinary text as it is', () => {
      for (const text of ['Get Sum Tool (everything)', 'everything.args-prompt', 'Engineering', 'a@b.example: 50% [draft]']) {
        assert.strictEqual(plainText(text), text);
        assert.strictEqual(labelText(text), text);
      }
    });
  });

  describe('firstLine and truncate', () => {
    it('cut at any line ending, and at a length with an ellipsis', () => {
      assert.strictEqual(firstLine('  one\rtwo'), 'one');
      assert.strictEqual(firstLine('one\r\ntwo'), 'one');
      assert.strictEqual(firstLine(undefined), '');
      assert.strictEqual(truncate('abcdef', 4), 'abc…');
      assert.strictEqual(truncate('abc', 4), 'abc');
    });
  });

  describe('the Markdown builders', () => {
    const evil = HOSTILE.at(-1)!;

    it('tooltips of servers, tools, prompts, resources and templates show no link, image or HTML', async () => {
      const info: ServerInfo = {
        id: 'ws::evil',
        name: evil,
        scope: workspaceScope(),
        definition: { type: 'stdio', command: evil, args: [evil], env: { [evil]: 'v' }, cwd: evil },
        state: { kind: 'error', message: evil },
        features: emptyFeatures(),
        crashCount: 0,
        serverInfo: { name: evil, title: evil, version: evil },
        protocolVersion: evil,
        instructions: evil,
      };
      const tooltips = [
        serverTooltip(info),
        toolTooltip({
          name: evil,
          title: evil,
          description: evil,
          inputSchema: { type: 'object', properties: { [evil]: { type: evil, description: evil } }, required: [evil] },
        }),
        promptTooltip({ name: evil, title: evil, description: evil, arguments: [{ name: evil, description: evil, required: true }] }),
        resourceTooltip({ uri: evil, name: evil, title: evil, description: evil, mimeType: evil, annotations: { audience: ['user'], lastModified: evil } }, evil),
        resourceTooltip({ uri: evil, name: evil }),
        templateTooltip({ uriTemplate: evil, name: evil, title: evil, description: evil, mimeType: evil }, evil),
      ];
      for (const tip of tooltips) {
        const html = await render(tip);
        assertTags(html, ['p', 'br', 'strong', 'em', 'code', 'hr', 'ul', 'li'], tip);
      }
    });

    it('tool results and prompts: server text fenced or escaped, the only link the one we point at', async () => {
      const target = 'mcp-host-resource://s/doc';
      const markdown = [
        contentToMarkdown(
          [
            { type: 'text', text: evil },
            { type: 'image', mimeType: 'image/png', data: 'AAAA) ![t](https://tracker.example/p.png' },
            { type: 'image', mimeType: evil, data: 'AAAA' },
            { type: 'resource', resource: { uri: evil, mimeType: evil, text: evil } },
            { type: 'resource_link', uri: evil, name: evil, title: evil, description: evil },
          ],
          { linkTarget: () => target },
        ),
        promptToMarkdown({ description: evil, messages: [{ role: 'user', content: { type: 'text', text: evil } }] }),
        toolResultToMarkdown({ content: [{ type: 'resource_link', uri: evil, name: evil, description: evil }], structuredContent: { [evil]: evil } }),
      ];
      for (const md of markdown) {
        const html = await render(md);
        // A text block that is Markdown shows formatted (safeMarkdown): its structure, never a link, image or HTML.
        assertTags(html, ['p', 'br', 'strong', 'em', 'code', 'pre', 'a', 'h4', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'del', 'hr', 'blockquote'], md);
        assert.ok(hrefsOf(html).every((h) => h === target), html);
      }
    });
  });
});
