// The walkthrough: every step's page is in the package, every button runs a command this VS Code has, and the
// walkthrough opens.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { pageQuery, pageRequest } from './pageRequests';
import { activateHost, sleep, waitFor } from './testKit';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string };
  completionEvents?: string[];
}

describe('Get Started with MCP Host (walkthrough)', function () {
  this.timeout(60_000);
  const extension = () => vscode.extensions.getExtension('mcp-host.mcp-host')!;
  const walkthrough = () => (extension().packageJSON.contributes.walkthroughs as { id: string; steps: Step[] }[])[0];

  before(() => activateHost());

  it('covers the first steps, each with its page and working buttons', async () => {
    const { id, steps } = walkthrough();
    assert.strictEqual(id, 'gettingStarted');
    assert.deepStrictEqual(
      steps.map((s) => s.id),
      ['configure', 'trust', 'resources', 'callTool', 'prompt'],
    );
    const commands = new Set(await vscode.commands.getCommands(true));
    for (const step of steps) {
      const page = path.join(extension().extensionPath, step.media.markdown ?? '');
      assert.ok(step.media.markdown && fs.existsSync(page), `${step.id}: its page ${page}`);
      assert.match(fs.readFileSync(page, 'utf8'), /^# /, `${step.id}: a page with a title`);
      const buttons = [...step.description.matchAll(/\]\(command:([\w.]+)(\?[^)]*)?\)/g)];
      assert.ok(buttons.length > 0, `${step.id}: a button`);
      for (const [, command, args] of buttons) {
        assert.ok(commands.has(command), `${step.id}: ${command} exists`);
        if (args) JSON.parse(decodeURIComponent(args.slice(1)));
      }
      for (const event of step.completionEvents ?? []) {
        const [kind, target] = event.split(':');
        if (kind === 'onCommand') assert.ok(commands.has(target), `${step.id}: completes on ${target}, which exists`);
      }
    }
  });

  it('opens', async () => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'mcp-host.mcp-host#gettingStarted', false);
    await waitFor(() => /Welcome|Walkthrough/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''), 'the walkthrough on screen');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  /** The page's text under `selector`. */
  const pageText = async (selector: string) => (await pageQuery<string>(selector, 'return element.innerText;')).join('\n');

  it('is listed by "Welcome: Open Walkthrough…", typed in the Command Palette', async () => {
    await pageRequest({ action: 'press', key: 'F1' });
    await sleep(500);
    await pageRequest({ action: 'type', text: 'Welcome: Open Walkthrough' });
    await sleep(1000);
    await pageRequest({ action: 'press', key: 'Enter' });
    const listed = await waitFor(async () => /Get Started with MCP Host/.test(await pageText('.quick-input-widget')), 'the walkthrough in the list', 15_000).catch(async (e) => {
      await pageRequest({ action: 'screenshot', path: `${process.env.MCPHOST_TEST_REPO_ROOT}/.cache/walkthrough-pick.png` });
      throw new Error(`${(e as Error).message}: ${await pageText('.quick-input-widget')}`);
    });
    assert.ok(listed);
    await pageRequest({ action: 'press', key: 'Escape' });
  });

  it('opens from "MCP: Get Started with MCP Host", typed in the Command Palette', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await pageRequest({ action: 'press', key: 'F1' });
    await sleep(500);
    await pageRequest({ action: 'type', text: 'MCP: Get Started with MCP Host' });
    await sleep(1000);
    await pageRequest({ action: 'press', key: 'Enter' });
    await waitFor(async () => /Get Started with MCP Host/.test(await pageText('.gettingStartedContainer')), 'the walkthrough open', 15_000);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('is on the Welcome page', async () => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough');
    const shown = await waitFor(async () => /Get Started with MCP Host/.test(await pageText('.gettingStartedContainer')), 'the walkthrough on the Welcome page', 15_000).catch(async (e) => {
      await pageRequest({ action: 'screenshot', path: `${process.env.MCPHOST_TEST_REPO_ROOT}/.cache/walkthrough-welcome.png` });
      throw new Error(`${(e as Error).message}: ${await pageText('.gettingStartedContainer')}`);
    });
    assert.ok(shown);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
