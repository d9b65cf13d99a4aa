// The walkthrough: every step's page is in the package, every button runs a command this VS Code has, and the
// walkthrough opens.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { activateHost, waitFor } from './testKit';

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
});
