// The document URI scheme of resources: server identity kept, any resource URI carried exactly, file names that pick
// the right language or viewer.
import * as assert from 'assert';
import { extensionsForMime, isTextMime, mimeEssence, opensInViewer } from '../../src/core/presentation/mimeTypes';
import {
  RESOURCE_SCHEME,
  fileNameFor,
  fromUriParts,
  resourceKey,
  safeFileName,
  toUriParts,
  type ResourceLocation,
} from '../../src/core/features/resources/resourceLocation';

/** What VS Code's `Uri.toString()` / `Uri.parse()` do to the components: percent-encode, then decode. */
function throughUriString(parts: ReturnType<typeof toUriParts>) {
  const text = `${parts.scheme}://${encodeURIComponent(parts.authority).toLowerCase()}${parts.path.split('/').map(encodeURIComponent).join('/')}?${encodeURIComponent(parts.query)}`;
  const m = /^([^:]+):\/\/([^/]*)([^?]*)\?(.*)$/s.exec(text)!;
  return { scheme: m[1], authority: decodeURIComponent(m[2]), path: decodeURIComponent(m[3]), query: decodeURIComponent(m[4]) };
}

const roundTrip = (loc: ResourceLocation, serverName = 'srv') => fromUriParts(throughUriString(toUriParts(loc, serverName)));

describe('resources: document URIs', () => {
  const serverA = 'file:///home/me/project::everything';
  const serverB = 'user::everything';

  it('keeps the server identity: the same resource URI of two servers gives two documents', () => {
    const uri = 'demo://resource/static/document/architecture.md';
    const a = toUriParts({ serverId: serverA, uri, fileName: 'architecture.md' }, 'everything');
    const b = toUriParts({ serverId: serverB, uri, fileName: 'architecture.md' }, 'everything');
    assert.strictEqual(a.scheme, RESOURCE_SCHEME);
    assert.notStrictEqual(a.authority, b.authority);
    assert.strictEqual(fromUriParts(a)?.serverId, serverA);
    assert.strictEqual(fromUriParts(b)?.serverId, serverB);
    assert.notStrictEqual(resourceKey(serverA, uri), resourceKey(serverB, uri));
    assert.match(a.authority, /^[0-9a-f]+$/, 'an authority that lowercasing cannot change');
    assert.strictEqual(a.path, '/everything/architecture.md', 'the tab shows the file name, the server name when needed');
  });

  it('round-trips odd characters in server ids and resource URIs exactly', () => {
    const odd = [
      'fixture://odd/a%20b/ünï code?q=1&r=a+b#frag',
      'file:///C:/Users/Me/My Documents/résumé.pdf',
      'custom:no-slashes',
      'x://h/%E2%9C%93/%25/%2F/..',
      'emoji://😀/🚀?😀=🚀',
      'weird://a/b?c=d&e=f&uri=evil',
      'tabs://a\tb/new\nline',
      '',
    ];
    for (const uri of odd) {
      for (const serverId of [serverA, 'file:///tmp/ä ö/x y::näme with spaces', 'user::a/b\\c']) {
        const loc: ResourceLocation = { serverId, uri, fileName: fileNameFor(uri) };
        assert.deepStrictEqual(roundTrip(loc, 'name/with:odd*chars'), loc, `${serverId} ${uri}`);
      }
    }
    const embedded: ResourceLocation = { serverId: serverB, uri: 'x://y', fileName: 'y.txt', embedded: '7' };
    assert.deepStrictEqual(roundTrip(embedded), embedded);
  });

  it('round-trips very long URIs while keeping file names short', () => {
    const uri = `long://host/${'segment/'.repeat(10_000)}${'n'.repeat(50_000)}.txt?${'q=1&'.repeat(5_000)}`;
    const loc: ResourceLocation = { serverId: serverA, uri, fileName: fileNameFor(uri, 'text/plain') };
    assert.ok(uri.length > 100_000);
    assert.ok(loc.fileName.length <= 120, `${loc.fileName.length}`);
    assert.ok(loc.fileName.endsWith('.txt'), 'the extension survives shortening');
    assert.deepStrictEqual(roundTrip(loc), loc);
  });

  it('rejects what is not a resource document', () => {
    const good = toUriParts({ serverId: serverA, uri: 'a://b', fileName: 'b' }, 's');
    assert.strictEqual(fromUriParts({ ...good, scheme: 'file' }), undefined);
    assert.strictEqual(fromUriParts({ ...good, authority: 'not-hex!' }), undefined);
    assert.strictEqual(fromUriParts({ ...good, authority: 'abc' }), undefined, 'odd number of hex digits');
    assert.strictEqual(fromUriParts({ ...good, query: 'nouri=1' }), undefined);
    assert.strictEqual(fromUriParts({ ...good, path: '/' }), undefined);
  });

  it('names files so the editor picks the language or viewer', () => {
    assert.strictEqual(fileNameFor('demo://resource/static/document/architecture.md', 'text/markdown', 'architecture.md'), 'architecture.md');
    assert.strictEqual(fileNameFor('fixture://item/1', 'text/plain', 'item-1'), 'item-1.txt', 'the listed name when the URI has no extension');
    assert.strictEqual(fileNameFor('fixture://data/config', 'application/json'), 'config.json');
    assert.strictEqual(fileNameFor('fixture://image/pixel', 'image/png', 'pixel'), 'pixel.png');
    assert.strictEqual(fileNameFor('fixture://image/pixel.dat', 'image/png'), 'pixel.dat.png', 'a viewer type overrides a foreign extension');
    assert.strictEqual(fileNameFor('file:///x/notes.log', 'text/plain'), 'notes.log', 'a text file keeps its own extension');
    assert.strictEqual(fileNameFor('file:///x/main.py', undefined), 'main.py');
    assert.strictEqual(fileNameFor('x://h/a%20b.md'), 'a b.md', 'percent-decoded');
    assert.strictEqual(fileNameFor('x://h/', undefined, undefined), 'resource');
    assert.strictEqual(fileNameFor('x://h/thing', 'application/vnd.api+json'), 'thing.json');
    assert.strictEqual(fileNameFor('x://h/thing', 'application/x-unknown'), 'thing');
    assert.strictEqual(safeFileName('a/b\\c:d*e?f"g<h>i|j#k%l'), 'a_b_c_d_e_f_g_h_i_j_k_l');
    assert.strictEqual(safeFileName('..hidden. '), 'hidden');
    assert.strictEqual(safeFileName('\u0000'), '_');
  });

  it('a resource name with a long run of spaces and dots does not block the extension host (linear, not quadratic)', () => {
    const name = `a${' .'.repeat(50_000)}b`;
    const started = performance.now();
    const safe = safeFileName(name);
    assert.ok(performance.now() - started < 200, `took ${Math.round(performance.now() - started)} ms`);
    assert.ok(safe.startsWith('a') && safe.length <= 120);
    assert.strictEqual(safeFileName(`report${' .'.repeat(50_000)}`), 'report');
  });

  it('knows MIME types: essence, extensions, text or binary, viewers', () => {
    assert.strictEqual(mimeEssence(' Text/HTML; charset=utf-8'), 'text/html');
    assert.deepStrictEqual(extensionsForMime('image/jpeg'), ['jpg', 'jpeg', 'jpe']);
    assert.ok(isTextMime('text/csv') && isTextMime('application/json') && isTextMime('image/svg+xml') && isTextMime('application/ld+json'));
    assert.ok(!isTextMime('image/png') && !isTextMime('application/octet-stream') && !isTextMime(undefined));
    assert.ok(opensInViewer('a.PNG') && opensInViewer('b.mp4'));
    assert.ok(!opensInViewer('c.svg') && !opensInViewer('d.txt') && !opensInViewer('e'));
  });
});
