import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeDefinition } from '../../src/core/config/describeDefinition';
import { fixtureServer } from './helpers';
import { createKit, entry, serverState, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('describeDefinition (what the trust question shows)', () => {
  it('shows the command line as written, names of plain variables, and the values of code-changing ones', () => {
    const text = describeDefinition({
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'some server', '${input:x}'],
      env: { API_KEY: 'sk-literal-key', NODE_OPTIONS: '--require ./evil.js', PATH: '/tmp/bin' },
      envFile: '.env',
    });
    assert.match(text, /^Command: npx -y "some server" \$\{input:x\}$/m);
    assert.match(text, /⚠ NODE_OPTIONS=--require \.\/evil\.js/);
    assert.match(text, /⚠ PATH=\/tmp\/bin/);
    assert.match(text, /Environment: API_KEY$/m);
    assert.ok(!text.includes('sk-literal-key'), 'plain values stay hidden');
    assert.match(text, /Environment file: \.env/);
  });

  it('shows a remote server by URL and header names only', () => {
    const text = describeDefinition({ type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer abc' } });
    assert.strictEqual(text, 'URL: https://example.com/mcp (Streamable HTTP)\nHeaders: Authorization');
  });
});

describe('trust covers the env file', function () {
  this.timeout(30_000);
  let kit: Kit;
  afterEach(async () => kit?.registry.disposeAsync());

  it('asks again when the env file of a trusted server changes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-envfile-'));
    try {
      fs.writeFileSync(path.join(dir, '.env'), 'A=1\n');
      const scope = workspaceScope(dir);
      const server = { ...stdio(process.execPath, [fixtureServer('basic-server.mjs')]), envFile: '${workspaceFolder}/.env' };
      kit = createKit({}, { trustAllServers: false });
      kit.trustAnswers.push(true, true);
      await kit.update(scope, [entry('s', server)], []);
      await waitForState(kit, 's', 'running');
      await kit.registry.get(serverState(kit, 's')!.id)!.restart();
      assert.strictEqual(kit.trustAsked.length, 1, 'same file: not asked again');
      fs.writeFileSync(path.join(dir, '.env'), 'NODE_OPTIONS=--require ./evil.js\n');
      await kit.registry.get(serverState(kit, 's')!.id)!.restart();
      assert.strictEqual(kit.trustAsked.length, 2, 'edited file: asked again');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
