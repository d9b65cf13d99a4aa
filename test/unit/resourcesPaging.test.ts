// Resources are listed a page at a time: against the paging fixture (10,000 resources in pages of 100) only what is
// asked for is fetched, and templates are filled in with the server's completions.
import * as assert from 'assert';
import { ResourceService } from '../../src/core/features/resources/resourceService';
import { ResourceTemplateForm } from '../../src/core/features/resources/resourceTemplateForm.lazy';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, serverState, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

const node = process.execPath;
const scope = workspaceScope();

describe('resources: lazy paging and templates', function () {
  this.timeout(60_000);
  let kit: Kit;
  let service: ResourceService;

  const listRequests = async (id: string): Promise<number> => {
    const result = (await kit.manager.session(id).callTool({ name: 'count-list-requests', arguments: {} })) as {
      content: { text: string }[];
    };
    return Number(result.content[0].text);
  };

  async function startPaging(env: Record<string, string> = {}) {
    kit = createKit();
    service = new ResourceService(kit.manager);
    await kit.update(scope, [entry('paging', stdio(node, [fixtureServer('paging-server.mjs')], env))], []);
    return waitForState(kit, 'paging', 'running');
  }

  afterEach(async () => {
    await kit?.manager.disposeAsync();
  });

  it('loads only the first page of 10,000 resources when the server starts', async () => {
    const info = await startPaging();
    assert.strictEqual(info.features.resources.length, 100);
    assert.strictEqual(info.features.resources[0].uri, 'fixture://item/1');
    assert.strictEqual(info.features.resources[99].uri, 'fixture://item/100');
    assert.ok(service.hasMore(info.id));
    assert.strictEqual(await listRequests(info.id), 1, 'one resources/list request, not 100');
    assert.match(kit.log('paging').text, /100\+ resources, 2 resource templates/);
  });

  it('appends one page per "load more", shares concurrent requests, and stops at the last page', async function () {
    this.timeout(120_000);
    const info = await startPaging();
    await Promise.all([service.loadMore(info.id), service.loadMore(info.id)]);
    let now = serverState(kit, 'paging')!;
    assert.strictEqual(now.features.resources.length, 200, 'the two calls shared one page');
    assert.strictEqual(now.features.resources[100].uri, 'fixture://item/101');
    assert.strictEqual(await listRequests(info.id), 2);
    while (service.hasMore(info.id)) await service.loadMore(info.id);
    now = serverState(kit, 'paging')!;
    assert.strictEqual(now.features.resources.length, 10_000);
    assert.strictEqual(new Set(now.features.resources.map((r) => r.uri)).size, 10_000, 'no page twice');
    assert.strictEqual(await listRequests(info.id), 100);
    await service.loadMore(info.id);
    assert.strictEqual(await listRequests(info.id), 100, 'nothing more to ask once the last page is in');
  });

  it('reloads as many pages as were loaded when asked to refresh', async () => {
    const info = await startPaging({ FIXTURE_RESOURCE_COUNT: '250' });
    await service.loadMore(info.id);
    assert.strictEqual(serverState(kit, 'paging')!.features.resources.length, 200);
    await service.refresh(info.id);
    assert.strictEqual(serverState(kit, 'paging')!.features.resources.length, 200, 'still two pages, not back to one');
    assert.ok(service.hasMore(info.id));
    await service.loadMore(info.id);
    assert.strictEqual(serverState(kit, 'paging')!.features.resources.length, 250);
    assert.ok(!service.hasMore(info.id));
  });

  it('pages resource templates like resources: the first page at start, the next on demand, as many again on refresh', async () => {
    const info = await startPaging({ FIXTURE_RESOURCE_COUNT: '10', FIXTURE_TEMPLATE_COUNT: '150' });
    assert.strictEqual(info.features.resourceTemplates.length, 100, 'the first page of 152');
    assert.ok(service.hasMoreTemplates(info.id));
    assert.match(kit.log('paging').text, /10 resources, 100\+ resource templates/);
    await Promise.all([service.loadMoreTemplates(info.id), service.loadMoreTemplates(info.id)]);
    let templates = serverState(kit, 'paging')!.features.resourceTemplates;
    assert.strictEqual(templates.length, 152, 'the two calls shared one page, the last');
    assert.strictEqual(templates[100].uriTemplate, 'fixture://generated/99/{id}');
    assert.ok(!service.hasMoreTemplates(info.id));
    await service.refresh(info.id);
    templates = serverState(kit, 'paging')!.features.resourceTemplates;
    assert.strictEqual(templates.length, 152, 'both pages again, not back to one');
    assert.strictEqual(new Set(templates.map((t) => t.uriTemplate)).size, 152);
  });

  it('refreshes the list on list_changed', async () => {
    kit = createKit();
    await kit.update(scope, [entry('res', stdio(node, [fixtureServer('resources-server.mjs')]))], []);
    const info = await waitForState(kit, 'res', 'running');
    const before = info.features.resources.length;
    await kit.manager.session(info.id).callTool({ name: 'add-resource', arguments: { name: 'fresh' } });
    const after = await waitFor(() => {
      const r = serverState(kit, 'res')!.features.resources;
      return r.length === before + 1 && r;
    }, 'list_changed reload', 5000);
    assert.strictEqual(after.at(-1)?.uri, 'fixture://added/fresh');
  });

  it('lists templates and fills their variables with completions, earlier variables as context', async () => {
    const info = await startPaging();
    assert.deepStrictEqual(
      info.features.resourceTemplates.map((t) => t.uriTemplate),
      ['fixture://item/{id}', 'fixture://search/{category}/{term}'],
    );
    const search = new ResourceTemplateForm(info.features.resourceTemplates[1]);
    assert.deepStrictEqual(search.variables, ['category', 'term']);
    const complete = service.completer(info.id, search.template.uriTemplate);
    assert.deepStrictEqual(await complete('category', 'g', {}), ['games', 'gardening']);
    assert.deepStrictEqual(await complete('term', '', { category: 'games' }), ['chess', 'go', 'tetris']);
    assert.deepStrictEqual(await complete('term', 'a', { category: 'movies' }), ['alien', 'amelie', 'arrival']);
    assert.deepStrictEqual(await complete('term', 'a', {}), [], 'without context the server has nothing to offer');
    const uri = search.expand({ category: 'books', term: 'dune' });
    assert.strictEqual(uri, 'fixture://search/books/dune');
    const contents = await service.read(info.id, uri);
    assert.strictEqual((contents[0] as { text: string }).text, 'Search books for dune');

    const item = new ResourceTemplateForm(info.features.resourceTemplates[0]);
    const ids = await service.completer(info.id, item.template.uriTemplate)('id', '999', {});
    assert.deepStrictEqual(ids.slice(0, 3), ['999', '9990', '9991']);
    assert.strictEqual((await service.completer(info.id, item.template.uriTemplate)('id', '1', {})).length, 100, 'capped at 100 values');
  });

  it('gives no completions (rather than an error) when the server offers none or fails', async () => {
    kit = createKit();
    service = new ResourceService(kit.manager);
    await kit.update(scope, [entry('res', stdio(node, [fixtureServer('resources-server.mjs')]))], []);
    const info = await waitForState(kit, 'res', 'running');
    assert.deepStrictEqual(await service.completer(info.id, 'fixture://x/{y}')('y', '', {}), [], 'no completions capability');
    assert.deepStrictEqual(await service.completer('nope', 'fixture://x/{y}')('y', '', {}), [], 'unknown server');
    const paging = await (async () => {
      await kit.update(scope, [entry('paging', stdio(node, [fixtureServer('paging-server.mjs')]))], []);
      return waitForState(kit, 'paging', 'running');
    })();
    assert.deepStrictEqual(await service.completer(paging.id, 'fixture://unknown/{x}')('x', '', {}), [], 'the server answered with an error');
    assert.match(kit.log('paging').text, /completion\/complete failed: .*Unknown resource template/);
  });
});
