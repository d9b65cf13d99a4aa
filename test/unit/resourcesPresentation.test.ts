// How resources read in the Resources view: sizes, descriptions, icons, tooltips that escape what servers wrote.
import * as assert from 'assert';
import type { ServerListing } from '../../src/core/features/resources/resourceListings';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import {
  downExplanation,
  formatSize,
  mimeIcon,
  pickIcon,
  resourceDescription,
  resourceTooltip,
  serverListingDescription,
  templateTooltip,
} from '../../src/core/presentation/resourcePresentation';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('resources: presentation', () => {
  it('formats sizes and descriptions', () => {
    assert.strictEqual(formatSize(1), '1 byte');
    assert.strictEqual(formatSize(1023), '1023 bytes');
    assert.strictEqual(formatSize(1536), '1.5 KB');
    assert.strictEqual(formatSize(10 * 1024 * 1024), '10 MB');
    assert.strictEqual(resourceDescription({ description: 'First line\nsecond', mimeType: 'text/plain', size: 2048 }), 'First line · text/plain · 2 KB');
    assert.strictEqual(resourceDescription({}), '');
  });

  it('picks icons by MIME type, and only data: icons from servers', () => {
    assert.strictEqual(mimeIcon('image/png'), 'file-media');
    assert.strictEqual(mimeIcon('application/json; charset=utf-8'), 'json');
    assert.strictEqual(mimeIcon('text/markdown'), 'markdown');
    assert.strictEqual(mimeIcon('application/octet-stream'), 'file-binary');
    assert.strictEqual(mimeIcon('text/x-python'), 'file-code');
    assert.strictEqual(mimeIcon(undefined), 'file');
    assert.strictEqual(pickIcon([{ src: 'https://tracker.example/i.png' }], 'dark'), undefined, 'a remote icon would phone home');
    assert.strictEqual(pickIcon([{ src: 'data:text/html,<script>' }], 'dark'), undefined);
    assert.strictEqual(pickIcon([{ src: PNG, theme: 'light' }, { src: `${PNG}dark`, theme: 'dark' }], 'dark'), `${PNG}dark`);
    assert.strictEqual(pickIcon([{ src: PNG, theme: 'light' }], 'dark'), PNG, 'better one for the other theme than none');
  });

  it('shows URI, annotations and server in tooltips, escaping what the server wrote', () => {
    const tip = resourceTooltip(
      {
        uri: 'x://a`b',
        name: 'n',
        title: '**bold** [link](https://evil)',
        mimeType: 'text/plain',
        size: 2048,
        annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' },
      },
      'srv',
    );
    assert.ok(tip.includes('``x://a`b``'), tip);
    assert.ok(!tip.includes('[link](https'), 'no live link');
    assert.match(tip, /\*\*Audience:\*\* user/);
    assert.match(tip, /\*\*Priority:\*\* 0\\\.5/);
    assert.match(tip, /\*\*Last modified:\*\* 2025\\-01\\-12T15\\:00\\:58Z/);
    assert.match(tip, /2 KB \\\(2048 bytes\\\)/);
    assert.match(tip, /From srv$/);
    assert.match(templateTooltip({ uriTemplate: 'x://{id}', name: 't' }, 'srv'), /Template `x:\/\/\{id\}`/);
  });

  it('describes servers in the view by what they offer or why they are down', () => {
    const server = { name: 's', state: { kind: 'running' } } as ServerInfo;
    const listing = (patch: Partial<ServerListing>): ServerListing => ({ server, status: 'running', resources: [], templates: [], hasMore: false, hasMoreTemplates: false, ...patch });
    const one = [{ uri: 'x://1', name: '1' }];
    assert.strictEqual(serverListingDescription(listing({ resources: one })), '1 resource');
    assert.strictEqual(serverListingDescription(listing({ resources: one, hasMore: true, templates: [{ uriTemplate: 'x', name: 't' }] })), '1+ resources · 1 template');
    assert.strictEqual(serverListingDescription(listing({ templates: [{ uriTemplate: 'x', name: 't' }], hasMoreTemplates: true })), '0 resources · 1+ templates');
    assert.strictEqual(serverListingDescription(listing({ status: 'no-resources' })), 'no resources');
    const failed = listing({ status: 'down', reason: 'boom\ndetails', server: { ...server, state: { kind: 'error', message: 'boom' } } });
    assert.strictEqual(serverListingDescription(failed), 'error');
    assert.strictEqual(downExplanation(failed), 'boom');
    const stopped = listing({ status: 'down', server: { ...server, state: { kind: 'stopped' } } });
    assert.strictEqual(serverListingDescription(stopped), 'stopped');
    assert.match(downExplanation(stopped), /^Not running: start the server/);
    const restricted = listing({ status: 'down', reason: 'Restricted Mode', server: { ...server, state: { kind: 'blocked', reason: 'restricted', message: 'Restricted Mode' } } });
    assert.strictEqual(serverListingDescription(restricted), 'restricted mode', 'as in the Servers view');
  });
});
