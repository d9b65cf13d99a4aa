// A real server whose every text attacks the UI (command links, HTML, lone \r, backticks, newlines), run through the
// host, and everything the extension builds from it — tooltips, chat listings, results, notification text — rendered
// as VS Code renders it: no link may lead anywhere but to our own commands, no HTML, no second line in a title.
import * as assert from 'assert';
import { promptsListing, resourcesListing, toolsListing } from '../../src/core/features/chat/chatListings';
import { promptToMarkdown, toolResultToMarkdown } from '../../src/core/features/chat/contentMarkdown.lazy';
import { listPrompts } from '../../src/core/features/prompts/promptCatalog';
import { labelText, plainText } from '../../src/core/presentation/serverText';
import { resourceTooltip, templateTooltip } from '../../src/core/presentation/resourcePresentation';
import { promptTooltip, serverTooltip, stateDisplay, toolTooltip } from '../../src/core/presentation/serverPresentation';
import { fixtureServer } from './helpers';
import { createKit, entry, stdio, userScope, waitForState, type Kit } from './hostTestKit';

/** VS Code's `parseLinkedText`: what notifications and quick input messages turn into links. */
const LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
// eslint-disable-next-line no-control-regex -- control characters are what a spoofed second line is made of
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

async function render(markdown: string): Promise<string> {
  const { marked } = await import('marked');
  return marked.parse(markdown, { gfm: true, async: false }) as string;
}

async function assertInert(markdown: string, where: string) {
  const html = await render(markdown);
  const hrefs = [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/gi)].map((m) => m[1]);
  assert.deepStrictEqual(hrefs.filter((h) => !h.startsWith('command:mcpHost.')), [], `${where}: ${html}`);
  const tags = [...html.matchAll(/<([a-z][a-z0-9]*)\b/gi)].map((m) => m[1].toLowerCase());
  assert.deepStrictEqual(tags.filter((t) => ['img', 'script', 'iframe', 'style', 'h1'].includes(t)), [], `${where}: ${html}`);
  assert.ok(!/<a href="command:x"/i.test(html), `${where}: the server's own anchor`);
}

describe('a server whose texts attack the UI', function () {
  this.timeout(30_000);
  let kit: Kit;
  afterEach(async () => kit?.manager.disposeAsync());

  it('tooltips, chat listings, results and notification texts built from it hold no link but ours', async () => {
    kit = createKit();
    await kit.update(userScope, [entry('evil', stdio(process.execPath, [fixtureServer('hostile-text-server.mjs')]))], []);
    const info = await waitForState(kit, 'evil', 'running');
    const [namedTool, tool] = info.features.tools;
    await assertInert(toolTooltip(namedTool), 'tool tooltip (hostile name)');
    const [prompt] = info.features.prompts;
    const [resource] = info.features.resources;
    const [template] = info.features.resourceTemplates;
    await assertInert(serverTooltip(info), 'server tooltip (instructions)');
    await assertInert(toolTooltip(tool), 'tool tooltip');
    await assertInert(promptTooltip(prompt), 'prompt tooltip');
    await assertInert(resourceTooltip(resource, info.name), 'resource tooltip');
    await assertInert(templateTooltip(template, info.name), 'template tooltip');
    await assertInert(toolsListing([info]), '@mcp /tools');
    await assertInert(promptsListing(listPrompts([info])), '@mcp /prompts');
    await assertInert(resourcesListing([info], 'mcpHost.attachResourceToChat'), '@mcp /resources');
    const session = kit.manager.session(info.id);
    await assertInert(toolResultToMarkdown(await session.callTool({ name: 'evil_tool', arguments: {} })), 'tool result');
    await assertInert(promptToMarkdown({ description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.description! } }] }), 'prompt document');
    const failure = await session.callTool({ name: 'fail', arguments: {} }).then(() => undefined, (e: Error) => e.message);
    assert.ok(failure, 'the failing call failed');
    for (const [where, text] of [
      ['error notification', plainText(failure)],
      ['quick pick label', labelText(tool.title!)],
      ['dialog title', plainText(`Run the tool "${tool.title}"`)],
    ]) {
      assert.deepStrictEqual([...text.matchAll(LINKED_TEXT)], [], `${where}: ${text}`);
      assert.ok(!CONTROL.test(text), `${where} has no second line: ${JSON.stringify(text)}`);
    }
    assert.ok(!CONTROL.test(stateDisplay(info).description));
  });
});
