// First integration suite: the extension is present in a real VS Code and activates.
import * as assert from 'node:assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { testLog } from './index';

const EXTENSION_ID = 'mcp-host.mcp-host';
const FAKE_LM_ID = 'mcp-host-test.fake-lm-extension';

describe('smoke', () => {
  it('runs in a real VS Code extension host', () => {
    testLog(`    VS Code ${vscode.version} (${vscode.env.appName}, ${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'}), Node ${process.version}`);
    assert.match(vscode.version, /^\d+\.\d+\.\d+/);
  });

  it(`finds and activates ${EXTENSION_ID}`, async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  it('opens the fixture workspace', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.ok(folders.length >= 1, 'a workspace folder is open');
    assert.strictEqual(folders[0].uri.scheme, 'file');
    assert.strictEqual(path.basename(folders[0].uri.fsPath), 'workspace');
    const expected = process.env.MCPHOST_TEST_WORKSPACE;
    if (expected) {
      assert.strictEqual(folders[0].uri.fsPath, expected);
    }
  });

  it('has the fake language model of the test fixture extension', async () => {
    const fake = vscode.extensions.getExtension(FAKE_LM_ID);
    assert.ok(fake, `${FAKE_LM_ID} is loaded`);
    await fake.activate();
    let models: vscode.LanguageModelChat[] = [];
    for (let i = 0; i < 50 && !models.length; i++) {
      models = await vscode.lm.selectChatModels({ vendor: 'mcphost-fake-lm', id: 'fake-model' });
      if (!models.length) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert.strictEqual(models.length, 1, 'fake-model is selectable');
    const response = await models[0].sendRequest([vscode.LanguageModelChatMessage.User('ping')]);
    let text = '';
    for await (const chunk of response.text) {
      text += chunk;
    }
    assert.strictEqual(text, 'fake-model: ping');
  });
});
