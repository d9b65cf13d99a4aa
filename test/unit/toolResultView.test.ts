import * as assert from 'assert';
import { base64Bytes, formatBytes, toolResultView } from '../../src/core/features/tools/toolResultView.lazy';
import { toolResultHtml, type ToolResultPage } from '../../src/vscode/tools/toolResultHtml.lazy';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const page = (outcome: ToolResultPage['outcome'], more: Partial<ToolResultPage> = {}): string =>
  toolResultHtml({
    callId: 'call-1',
    serverId: 'ws::everything',
    serverName: 'everything',
    toolName: 'get-tiny-image',
    argumentsJson: '{}',
    outcome,
    run: 1,
    nonce: 'n0nce',
    ...more,
  });

describe('tool result view', () => {
  it('counts the decoded bytes of base64 (an image is not "0B")', () => {
    assert.strictEqual(base64Bytes(PNG), 70);
    assert.strictEqual(base64Bytes('YQ=='), 1);
    assert.strictEqual(base64Bytes('YWI='), 2);
    assert.strictEqual(base64Bytes('YWJj'), 3);
    assert.strictEqual(base64Bytes('YWJj\nZGVm'), 6);
    assert.strictEqual(base64Bytes(''), 0);
    assert.deepStrictEqual([formatBytes(1), formatBytes(70), formatBytes(1536), formatBytes(3 * 1024 * 1024)], ['1 byte', '70 bytes', '1.5 KB', '3.0 MB']);
  });

  it('shows text as text, JSON text pretty-printed, media with their size, links, embedded resources and structured content', () => {
    const view = toolResultView({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'text', text: '{"a":1,"b":[2]}' },
        { type: 'text', text: '{not json' },
        { type: 'image', mimeType: 'image/png', data: PNG },
        { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
        { type: 'resource_link', uri: 'demo://x', name: 'x' },
        { type: 'resource', resource: { uri: 'demo://y', text: 'why' } },
        { type: 'resource', resource: { uri: 'demo://z', blob: 'YWJj' } },
      ],
      structuredContent: { a: 1 },
    });
    assert.strictEqual(view.isError, false);
    assert.deepStrictEqual(
      view.blocks.map((b) => b.kind),
      ['text', 'json', 'text', 'image', 'audio', 'resourceLink', 'resource', 'resource'],
    );
    assert.deepStrictEqual(view.blocks[1], { kind: 'json', json: '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}' });
    assert.deepStrictEqual(view.blocks[3], { kind: 'image', mimeType: 'image/png', base64: PNG, bytes: 70, displayable: true });
    assert.strictEqual((view.blocks[4] as { bytes: number }).bytes, 4);
    assert.deepStrictEqual(view.blocks[7], { kind: 'resource', uri: 'demo://z', mimeType: undefined, bytes: 3 });
    assert.strictEqual(view.structured, '{\n  "a": 1\n}');
    assert.strictEqual(toolResultView({ content: [], isError: true }).isError, true);
  });

  it('refuses to display media whose type or data could break out of a data URI', () => {
    const view = toolResultView({
      content: [
        { type: 'image', mimeType: 'image/svg+xml"onload="x', data: PNG },
        { type: 'image', mimeType: 'image/png', data: 'abc"><script>' },
        { type: 'image', mimeType: 'text/html', data: PNG },
        { type: 'audio', mimeType: 'image/png', data: PNG },
      ],
    });
    assert.deepStrictEqual(
      view.blocks.map((b) => (b as { displayable: boolean }).displayable),
      [false, false, false, false],
    );
    const html = page({ kind: 'result', view, durationMs: 5 });
    assert.doesNotMatch(html, /<script/);
    assert.doesNotMatch(html, /<img /, 'nothing displayed');
    assert.match(html, /Not shown: its type or data is not valid image/);
  });

  it('renders a page that runs no script, escapes every server text and links only our commands', () => {
    const view = toolResultView({
      content: [
        { type: 'text', text: '<img src=x onerror=alert(1)> & "quotes"' },
        { type: 'image', mimeType: 'image/png', data: PNG },
        { type: 'resource_link', uri: 'demo://"><script>', name: '<b>link</b>', description: '<i>d</i>' },
      ],
      structuredContent: { html: '<script>alert(1)</script>' },
    });
    const html = page({ kind: 'result', view, durationMs: 1234 }, { toolTitle: '<Tiny> image', serverName: 'ev"il' });
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; img-src data:; media-src data:; style-src 'nonce-n0nce';"/);
    assert.doesNotMatch(html, /<script/);
    assert.doesNotMatch(html, /<img src=x/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt; &amp; &quot;quotes&quot;/);
    assert.match(html, /<h1>&lt;Tiny&gt; image \(get-tiny-image\)<\/h1>/);
    assert.match(html, /<strong>ev&quot;il<\/strong>/);
    assert.match(html, /<img src="data:image\/png;base64,iVBOR[^"]*" alt="image, image\/png, 70 bytes">/);
    assert.match(html, /Image · image\/png · 70 bytes/);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    assert.deepStrictEqual(
      hrefs.map((h) => h.replace(/\?.*/, '')),
      ['command:mcpHost.rerunToolCall', 'command:mcpHost.rerunToolCall', 'command:mcpHost.previewToolResult', 'command:mcpHost.openResourceLink'],
    );
    // "Open as Markdown Preview" under the text block: the call and the block, nothing of the server's text.
    assert.deepStrictEqual(JSON.parse(decodeURIComponent(hrefs[2].slice(hrefs[2].indexOf('?') + 1))), ['call-1', 0]);
    const linkArgs = JSON.parse(decodeURIComponent(hrefs[3].slice(hrefs[3].indexOf('?') + 1)));
    assert.deepStrictEqual(linkArgs, ['ws::everything', { type: 'resource_link', uri: 'demo://"><script>', name: '<b>link</b>' }]);
    assert.match(html, /&lt;b&gt;link&lt;\/b&gt;/);
    assert.match(html, /Structured content<\/h2><pre class="json">\{\n {2}&quot;html&quot;: &quot;&lt;script&gt;alert\(1\)&lt;\/script&gt;&quot;\n\}<\/pre>/);
    assert.match(html, /✓ done<\/span> · 1\.23 s/);
  });

  it('marks a result the tool flagged as an error, and a call that failed', () => {
    const flagged = page({ kind: 'result', view: toolResultView({ content: [{ type: 'text', text: 'no such city' }], isError: true }), durationMs: 10 });
    assert.match(flagged, /✗ the tool reported an error/);
    assert.match(flagged, /<section class="error-box"><h2>Error returned by the tool<\/h2>/);
    const failed = page({ kind: 'failed', message: 'MCP error -32602: <bad>', durationMs: 10 }, { run: 2 });
    assert.match(failed, /✗ the call failed/);
    assert.match(failed, /MCP error -32602: &lt;bad&gt;/);
    assert.match(failed, / · run 2<\/p>/);
  });
});
