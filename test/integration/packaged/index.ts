// Test entry for scripts/check-vsix.mjs (npm run test:package): the extension installed from the packaged
// mcp-host.vsix (into the extensions dir given as MCPHOST_TEST_EXTENSIONS_DIR, not as a development path)
// is found and activates. The suite is built in code, so this one file is the whole test.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import type { McpHostApi } from '../../../src/vscode/publicApi';
import { createMocha, runMocha, testLog } from '../index';
import { pageQuery, pageRequest } from '../pageRequests';

const EXTENSION_ID = 'mcp-host.mcp-host';

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(fs.realpathSync(parent), fs.realpathSync(child));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function getExtension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  return ext;
}

export function run(): Promise<void> {
  const mocha = createMocha();
  const suite = Mocha.Suite.create(mocha.suite, 'packaged extension (.vsix)');

  suite.addTest(
    new Mocha.Test(`${EXTENSION_ID} is installed from the extensions dir, not a development path`, () => {
      const ext = getExtension();
      const location = ext.extensionUri.fsPath;
      testLog(`    installed at ${location} (version ${ext.packageJSON.version})`);
      const extensionsDir = process.env.MCPHOST_TEST_EXTENSIONS_DIR;
      assert.ok(extensionsDir, 'MCPHOST_TEST_EXTENSIONS_DIR is set');
      assert.ok(isInside(location, extensionsDir), `${location} is inside ${extensionsDir}`);
      const repoRoot = process.env.MCPHOST_TEST_REPO_ROOT;
      if (repoRoot) {
        assert.ok(!isInside(location, repoRoot), `${location} is not inside the repository`);
      }
      const expectedVersion = process.env.MCPHOST_TEST_EXPECTED_VERSION;
      if (expectedVersion) {
        assert.strictEqual(ext.packageJSON.version, expectedVersion);
      }
      const main = path.join(location, ext.packageJSON.main as string);
      assert.ok(fs.existsSync(main) || fs.existsSync(`${main}.js`), `${ext.packageJSON.main} is in the package`);
      assert.ok(fs.existsSync(path.join(path.dirname(main), 'host.js')), 'the host bundle (dist/host.js) is in the package');
      assert.ok(fs.existsSync(path.join(path.dirname(main), 'launch.js')), 'the launch bundle (dist/launch.js) is in the package');
      // Tool views (MCP Apps) load their webview script from the package: without it they would stay blank.
      assert.ok(fs.existsSync(path.join(location, 'dist', 'webview', 'appFrame.js')), 'the tool views’ webview script is in the package');
      assert.ok(
        !fs.existsSync(path.join(location, 'test', 'fixtures', 'fake-lm-extension')),
        'the test-only fake LM extension is not in the package',
      );
    }),
  );

  suite.addTest(
    new Mocha.Test(`${EXTENSION_ID} activates`, async () => {
      const ext = getExtension();
      await ext.activate();
      assert.strictEqual(ext.isActive, true);
    }),
  );

  suite.addTest(
    new Mocha.Test(`${EXTENSION_ID} runs the workspace's server, with the host bundle from the package`, async () => {
      const api = (await getExtension().activate()) as McpHostApi;
      const deadline = Date.now() + 30_000;
      let state = api.getServers().find((s) => s.name === 'packaged')?.state;
      while (state?.kind !== 'running' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        state = api.getServers().find((s) => s.name === 'packaged')?.state;
      }
      assert.strictEqual(state?.kind, 'running', JSON.stringify(state));
      // Confined on Linux, by the sandbox runtime the package holds.
      if (process.platform === 'linux') assert.strictEqual(api.getServers().find((s) => s.name === 'packaged')?.confined, true);
    }),
  );

  suite.addTest(
    new Mocha.Test('"Welcome: Open Walkthrough…" lists Get Started with MCP Host, from the package', async () => {
      const text = async () => (await pageQuery<string>('.quick-input-widget', 'return element.innerText;')).join('\n');
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      await pageRequest({ action: 'press', key: 'F1' });
      await sleep(500);
      await pageRequest({ action: 'type', text: 'Welcome: Open Walkthrough' });
      await sleep(1000);
      await pageRequest({ action: 'press', key: 'Enter' });
      let listed = '';
      for (const deadline = Date.now() + 15_000; Date.now() < deadline && !/Get Started with MCP Host/.test(listed); await sleep(250)) listed = await text();
      await pageRequest({ action: 'press', key: 'Escape' });
      assert.match(listed, /Get Started with MCP Host/);
    }),
  );

  return runMocha(mocha);
}
