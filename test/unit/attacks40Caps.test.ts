// Servers that try to make the host keep more than it should (issue 40): each test is named after the attack, runs a
// real fixture server, and reads what the user sees (the server's log, the view's group text). Each failed before the
// cap on what one list may hold (listBudget.lazy.ts).
import * as assert from 'assert';
import * as v8 from 'v8';
import * as vm from 'vm';
import { fixtureServer, waitFor } from './helpers';
import { createKit, startUserServer, serverState, type Kit } from './hostTestKit';

const flood = fixtureServer('flood-pages-server.mjs');
const pagesAsked = (kit: Kit, name: string, method: string) => kit.log(name).lines.filter((l) => l.includes(`PAGE ${method} `)).length;

/** The heap in use after a full collection (the flag is set at run time: mocha is not started with it). */
function heapAfterGc(): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('attacks: what a server can make the host keep', function () {
  this.timeout(120_000);
  let kit: Kit;
  afterEach(async () => {
    await kit?.manager.disposeAsync();
  });

  it('a server that floods tools/list and prompts/list with 100 pages of 1 MB: 16 MB of each are kept, further pages refused, the log and the view say so, and the heap stays bounded', async () => {
    kit = createKit({}, { requestTimeoutMs: 60_000 });
    const before = heapAfterGc();
    const { id } = await startUserServer(kit, 'flood', flood, { FIXTURE_PAGES: '100', FIXTURE_PAGE_ITEMS: '1', FIXTURE_ITEM_KB: '1024', FIXTURE_PAGE_LOG: '1' });
    await waitFor(() => serverState(kit, 'flood')!.features.prompts.length, 'the prompts listed', 60_000);
    const { features } = serverState(kit, 'flood')!;
    // 1 MB items: 15 fit in 16 MB (each is a little over 1 MB of JSON); the 16th page is the last asked for.
    assert.strictEqual(features.tools.length, 15);
    assert.strictEqual(features.prompts.length, 15);
    // The fixture logs each page on stderr, which may arrive after the page's answer.
    await waitFor(() => pagesAsked(kit, 'flood', 'tools/list') >= 16, 'the pages logged', 5000).catch(() => undefined);
    assert.strictEqual(pagesAsked(kit, 'flood', 'tools/list'), 16);
    const log = kit.log('flood').text;
    assert.match(log, /The list of tools is incomplete: only the first 15 were kept: the server's list is bigger than the 16 MB a list may hold\. Further pages were refused\./);
    assert.match(log, /The list of prompts is incomplete: only the first 15 were kept/);
    assert.strictEqual(
      features.incomplete?.tools,
      "The list of tools is incomplete: only the first 15 were kept: the server's list is bigger than the 16 MB a list may hold.\nFurther pages were refused (see the server's log).",
    );
    // Tools and prompts at 16 MB each (held twice: the view's lists and the SDK's response cache), one page of resources
    // and one of templates: about 64 MB, where keeping all 200 MB offered (twice) grew it by 400 MB.
    const grown = (heapAfterGc() - before) / 1024 / 1024;
    assert.ok(grown < 100, `the heap grew by ${Math.round(grown)} MB`);
    assert.ok(kit.manager.session(id).isOpen, 'the server goes on running');
  });

  it('a server that lists 15,000 small tools over 30 pages: the first 10,000 are kept and the view marks the list incomplete', async () => {
    kit = createKit();
    await startUserServer(kit, 'many', flood, { FIXTURE_PAGES: '30', FIXTURE_PAGE_ITEMS: '500', FIXTURE_ITEM_KB: '0', FIXTURE_PAGE_LOG: '1' });
    await waitFor(() => serverState(kit, 'many')!.features.tools.length, 'the tools listed', 60_000);
    const { features } = serverState(kit, 'many')!;
    assert.strictEqual(features.tools.length, 10_000);
    await waitFor(() => pagesAsked(kit, 'many', 'tools/list') >= 21, 'the pages logged', 5000).catch(() => undefined);
    assert.strictEqual(pagesAsked(kit, 'many', 'tools/list'), 21);
    assert.match(features.incomplete?.tools ?? '', /^The list of tools is incomplete: only the first 10,000 were kept: the server offers more than the 10,000 items a list may hold\./);
    assert.strictEqual(features.incomplete?.resources, undefined, 'one page of resources is not cut');
  });

  it('a server whose resources go on past 10,000 as the user loads more: "load more" stops at 10,000 and the Resources group says why', async () => {
    kit = createKit();
    const { id, client } = await startUserServer(kit, 'paged', flood, { FIXTURE_PAGES: '30', FIXTURE_PAGE_ITEMS: '500', FIXTURE_ITEM_KB: '0' });
    for (let i = 0; i < 40 && client.hasMoreResources; i++) await client.loadMoreResources();
    for (let i = 0; i < 40 && client.hasMoreResourceTemplates; i++) await client.loadMoreResourceTemplates();
    const info = kit.manager.servers().find((s) => s.id === id)!;
    assert.strictEqual(info.features.resources.length, 10_000);
    assert.strictEqual(info.features.resourceTemplates.length, 10_000);
    assert.strictEqual(client.hasMoreResources, false);
    const why = info.features.incomplete?.resources ?? '';
    assert.match(why, /^The list of resources is incomplete: only the first 10,000 were kept/);
    assert.match(why, /\nThe list of resource templates is incomplete: only the first 10,000 were kept/);
    assert.match(kit.log('paged').text, /The list of resources is incomplete/);
  });
});
