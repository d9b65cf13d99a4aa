// What a read resource becomes in an editor, the clipboard and a saved file: read for real from the resources fixture.
import * as assert from 'assert';
import {
  binaryNotice,
  bytesToSave,
  copyableText,
  documentFileName,
  hexDump,
  renderDocument,
  renderText,
  type ResourceContents,
} from '../../src/core/features/resources/resourceContents';
import { ResourceReadError, ResourceService, describeReadError } from '../../src/core/features/resources/resourceService';
import { fixtureServer } from './helpers';
import { createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('resources: decoding contents', function () {
  this.timeout(30_000);
  let kit: Kit;
  let service: ResourceService;
  let serverId: string;
  const read = (uri: string) => service.read(serverId, uri);

  before(async () => {
    kit = createKit();
    service = new ResourceService(kit.manager);
    await kit.update(
      workspaceScope(),
      [entry('res', stdio(process.execPath, [fixtureServer('resources-server.mjs')], { FIXTURE_BIG_BYTES: String(2 * 1024 * 1024) }))],
      [],
    );
    serverId = (await waitForState(kit, 'res', 'running')).id;
  });

  after(async () => {
    await kit?.manager.disposeAsync();
  });

  it('shows text as it is, in a file named for its type', async () => {
    const contents = await read('fixture://data/config');
    const name = documentFileName('fixture://data/config', contents, { name: 'config' });
    assert.strictEqual(name, 'config.json');
    assert.strictEqual(text(renderDocument(contents, name)), '{ "answer": 42 }\n');
    assert.deepStrictEqual(copyableText(contents), { text: '{ "answer": 42 }\n', binaryParts: 0 });
  });

  it('gives an image its raw bytes, for the image viewer', async () => {
    const contents = await read('fixture://image/pixel');
    const name = documentFileName('fixture://image/pixel', contents, { name: 'pixel' });
    assert.strictEqual(name, 'pixel.png');
    const bytes = renderDocument(contents, name);
    assert.deepStrictEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'PNG signature');
    assert.deepStrictEqual(bytesToSave(contents), bytes);
    assert.deepStrictEqual(copyableText(contents), { text: '', binaryParts: 1 });
  });

  it('shows other binary data as a notice with its size and first bytes', async () => {
    const contents = await read('fixture://binary/data');
    const name = documentFileName('fixture://binary/data', contents, { name: 'data' });
    assert.strictEqual(name, 'data.bin');
    const shown = text(renderDocument(contents, name));
    assert.match(shown, /^Binary content \(application\/octet-stream\), 300 bytes\./);
    assert.match(shown, /^00000000 {2}00 01 02 03 04 05 06 07 {2}08 09 0a 0b 0c 0d 0e 0f {2}\|\.{16}\|$/m);
    assert.match(shown, /^00000020 {2}20 21 22 23 24 25 26 27 {2}28 29 2a 2b 2c 2d 2e 2f {2}\| !"#\$%&'\(\)\*\+,-\.\/\|$/m);
    assert.match(shown, /… 44 more bytes$/, 'the first 256 bytes only');
    assert.strictEqual(bytesToSave(contents).length, 300, 'saved as the exact bytes');
  });

  it('decodes a blob of a text type as text', async () => {
    const contents = await read('fixture://text-blob/note');
    const name = documentFileName('fixture://text-blob/note', contents, { name: 'note' });
    assert.strictEqual(name, 'note.txt');
    assert.strictEqual(text(renderDocument(contents, name)), 'A note sent as base64: ünïcode ✓\n');
    assert.deepStrictEqual(copyableText(contents).binaryParts, 0);
  });

  it('shows every part of a multi-part read, under headers', async () => {
    const contents = await read('fixture://multi/parts');
    assert.strictEqual(contents.length, 2);
    const name = documentFileName('fixture://multi/parts', contents, { name: 'parts' });
    const shown = text(renderDocument(contents, name));
    assert.match(shown, /^──── Part 1 of 2: fixture:\/\/multi\/parts#1 · text\/plain ────\nFirst part\n\n/);
    assert.match(shown, /──── Part 2 of 2: fixture:\/\/multi\/parts#2 · application\/octet-stream ────\nBinary content \(application\/octet-stream\), 4 bytes\./);
    assert.deepStrictEqual(copyableText(contents), { text: 'First part', binaryParts: 1 });
    assert.strictEqual(text(bytesToSave(contents)), shown);
  });

  it('never gives text to a viewer', () => {
    const textPng: ResourceContents[] = [{ uri: 'x://h/photo.png', mimeType: 'text/plain', text: 'not a picture' }];
    assert.strictEqual(documentFileName('x://h/photo.png', textPng), 'photo.png.txt');
    const twoImages: ResourceContents[] = [
      { uri: 'x://h/a.png', mimeType: 'image/png', blob: 'AA==' },
      { uri: 'x://h/b.png', mimeType: 'image/png', blob: 'AA==' },
    ];
    assert.strictEqual(documentFileName('x://h/a.png', twoImages), 'a.png.txt');
    assert.match(renderText([]), /no contents/);
  });

  it('reads big text and blobs whole', async () => {
    const big = await read('fixture://big/text');
    assert.strictEqual(renderDocument(big, 'big-text.txt').length, 2 * 1024 * 1024);
    const blob = await read('fixture://big/blob');
    assert.strictEqual(bytesToSave(blob).length, 2 * 1024 * 1024);
    assert.match(text(renderDocument(blob, 'big-blob.bin')), /2,097,152 bytes/);
  });

  it('turns read errors into clear messages', async () => {
    await assert.rejects(read('fixture://nope'), (e: ResourceReadError) => e.code === -32002 && e.message === 'Resource not found: fixture://nope');
    await assert.rejects(read('fixture://broken/internal'), (e: ResourceReadError) => e.code === -32603 && e.message === 'The disk is on fire (error -32603)');
    await assert.rejects(service.read('file:///nowhere::ghost', 'x://y'), /MCP server "ghost" is not running/);
    assert.match(describeReadError(Object.assign(new Error('Request timed out'), { code: 'REQUEST_TIMEOUT' }), 'x://y').message, /did not answer in time/);
  });

  it('dumps bytes as hex with a printable column', () => {
    assert.strictEqual(hexDump(new Uint8Array([0x41, 0x00, 0xff])), '00000000  41 00 ff                                          |A..|');
    assert.match(binaryNotice(new Uint8Array(1234), undefined), /^Binary content \(unknown type\), 1,234 bytes\./);
  });
});
