// The walkthrough: every step's page is in the package, every button runs a command this VS Code has, and the
// walkthrough opens.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { pageQuery, pageRequest } from './pageRequests';
import { activateHost, answerDialogs, sleep, waitFor, type TestedHost } from './testKit';

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
  let dialogs: vscode.Disposable | undefined;
  after(() => dialogs?.dispose());

  it('covers the first steps, each with its page and working buttons', async () => {
    const { id, steps } = walkthrough();
    assert.strictEqual(id, 'gettingStarted');
    assert.deepStrictEqual(
      steps.map((s) => s.id),
      ['configure', 'trust', 'resources', 'callTool', 'tools', 'prompt', 'builtin'],
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

  /** Whether the open walkthrough shows the step ticked (its checkbox, as VS Code draws it). */
  const ticked = async (step: string) => {
    const [checked] = await pageQuery<string | null>(`[data-done-step-id$="#${step}"]`, 'return element.getAttribute("aria-checked");');
    return checked;
  };
  const openWalkthrough = async () => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'mcp-host.mcp-host#gettingStarted', false);
    await waitFor(async () => (await ticked('callTool')) !== undefined, 'the walkthrough\'s steps on screen', 15_000);
  };

  /** The basic fixture server, running: trust granted and a tool call allowed once, as the user answers. */
  const runningBasic = async (api: TestedHost) => {
    dialogs ??= answerDialogs(api, { confirmToolCall: async () => 'once' });
    const basic = await waitFor(() => api.getServers().find((s) => s.name === 'basic'), 'the basic server');
    if (basic.state.kind !== 'running') await api.testing.startServer(basic.id);
    await waitFor(() => api.getServers().find((s) => s.id === basic.id)?.state.kind === 'running', 'basic running');
    return basic;
  };

  it('ticks "Call a tool" once a tool was called from the Servers view, not when the call was only begun', async () => {
    const api: TestedHost = await activateHost();
    const basic = await runningBasic(api);
    // Another suite may have called a tool already: its step and its key start again from nothing.
    await vscode.commands.executeCommand('setContext', 'mcpHost.did.callTool', false);
    await vscode.commands.executeCommand('resetGettingStartedProgress');
    await openWalkthrough();
    assert.strictEqual(await ticked('callTool'), 'false', 'not ticked yet');

    // The walkthrough's own button (Call Tool… with nothing picked): the call is only begun.
    const picking = vscode.commands.executeCommand('mcpHost.callTool');
    await sleep(1000);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await picking;
    await sleep(1000);
    assert.strictEqual(await ticked('callTool'), 'false', 'a picker opened and closed is no tool called');

    // A click on the tool's row in the Servers view: its form (no arguments), then Run whoami.
    // The row as the view draws it, found by walking the tree (folder group, server, its tools).
    const tree = api.testing.serversTree;
    const findRow = async (nodes: readonly unknown[], depth: number): Promise<vscode.TreeItem | undefined> => {
      for (const node of nodes) {
        const item = await tree.getTreeItem(node as never);
        if (item.command?.command === 'mcpHost.callTool' && item.command.arguments?.[0] === basic.id && item.command.arguments[1] === 'whoami') return item;
        if (depth > 0 && item.collapsibleState !== vscode.TreeItemCollapsibleState.None) {
          const found = await findRow((await tree.getChildren(node as never)) ?? [], depth - 1);
          if (found) return found;
        }
      }
      return undefined;
    };
    const toolRow = await findRow((await tree.getChildren()) ?? [], 3);
    assert.ok(toolRow?.command, "basic's whoami row in the Servers view");
    const calling = vscode.commands.executeCommand(toolRow.command.command, ...(toolRow.command.arguments ?? []));
    await sleep(1000);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // the review step: Run whoami
    await calling;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await openWalkthrough();
    await waitFor(async () => (await ticked('callTool')) === 'true', '"Call a tool" ticked', 10_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  // VS Code ticks a step on its event once per window: this suite runs first (test/integration/index.ts RUN_FIRST).
  it('ticks "Use a prompt" once a prompt was run without a model, not when the prompt pick was only opened', async () => {
    const basic = await runningBasic(await activateHost());
    await vscode.commands.executeCommand('setContext', 'mcpHost.did.runPrompt', false);
    await vscode.commands.executeCommand('resetGettingStartedProgress');
    await openWalkthrough();
    assert.strictEqual(await ticked('prompt'), 'false', 'not ticked yet');

    const picking = vscode.commands.executeCommand('mcpHost.runPrompt');
    await sleep(1000);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await picking;
    await sleep(1000);
    assert.strictEqual(await ticked('prompt'), 'false', 'a pick opened and closed is no prompt run');

    // What a click on the prompt's row runs, its argument given.
    const expanded = (await vscode.commands.executeCommand('mcpHost.runPrompt', basic.id, 'greet', { name: 'Ada' })) as { text: string } | undefined;
    assert.match(expanded?.text ?? '', /Ada/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await openWalkthrough();
    await waitFor(async () => (await ticked('prompt')) === 'true', '"Use a prompt" ticked', 10_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
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

  it('opens from "MCP Host: Get Started", typed in the Command Palette', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await pageRequest({ action: 'press', key: 'F1' });
    await sleep(500);
    await pageRequest({ action: 'type', text: 'MCP Host: Get Started' });
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
