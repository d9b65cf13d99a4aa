// Issue 41, item 5: VS Code's built-in MCP support stands beside MCP Host with commands of the same names. Ours are
// told apart by their category ("MCP Host: …"), and the choice between the two is offered where a newcomer looks: the
// first notification, the view's menu, its welcome text and the walkthrough.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers';
import { CHOOSE_BETWEEN_TITLE, coexistenceOfferText } from '../../src/core/presentation/coexistenceNotice';

/** VS Code 1.139's own MCP commands, as its Command Palette and its menus show them (category "MCP"). */
const BUILTIN_TITLES = [
  'List Servers', 'Reset Trust', 'Reset Cached Tools', 'Add Server...', 'Install Server from Manifest...', 'Browse MCP Servers',
  'Show Installed Servers', 'Open User Configuration', 'Open Remote User Configuration', 'Open Workspace Folder MCP Configuration',
  'Open Workspace MCP Configuration', 'Browse Resources...', 'Start Server', 'Stop Server', 'Restart Server', 'Show Output',
  'Server Options', 'Show Configuration', 'Edit Stored Input',
].map((t) => `MCP: ${t}`);

interface Contributes {
  commands: { command: string; title: string; category?: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
  viewsWelcome: { view: string; contents: string; when?: string }[];
  viewsContainers: { activitybar: { title: string }[] };
  walkthroughs: { steps: { id: string; description: string }[] }[];
}

describe("MCP Host beside VS Code's built-in MCP: told apart, and the choice found", () => {
  const contributes = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: Contributes }).contributes;
  const shown = (c: Contributes['commands'][number]) => (c.category ? `${c.category}: ${c.title}` : c.title);

  it('names every command "MCP Host: …", none as one of VS Code\'s', () => {
    assert.deepStrictEqual(contributes.commands.filter((c) => c.category !== 'MCP Host').map(shown), []);
    assert.deepStrictEqual(contributes.commands.map(shown).filter((t) => BUILTIN_TITLES.includes(t)), []);
    assert.strictEqual(contributes.viewsContainers.activitybar[0].title, 'MCP Host', 'the view, in the activity bar');
  });

  it('says in its first notification how to tell the two apart and where the choice is made again', () => {
    const choose = contributes.commands.find((c) => c.command === 'mcpHost.chooseBuiltinMcp')!;
    assert.strictEqual(CHOOSE_BETWEEN_TITLE, shown(choose), 'the notification names the command as the Command Palette lists it');
    const text = coexistenceOfferText(['everything', 'memory'], 'Let MCP Host Run Them', 'More Choices…');
    assert.match(text, /would also start everything, memory, and each would run twice/);
    assert.match(text, /"More Choices…" also offers to keep it on for Copilot's agent, using MCP Host's servers through its gateway/, 'the third way is named');
    assert.ok(text.includes('"MCP: …"') && text.includes('"MCP Host: …"'), text);
    assert.ok(text.includes(CHOOSE_BETWEEN_TITLE), text);
  });

  it("offers the choice in the Servers view's menu, its welcome text and the walkthrough", () => {
    assert.ok(contributes.menus['view/title'].some((m) => m.command === 'mcpHost.chooseBuiltinMcp' && m.when === 'view == mcpHost.servers'), 'the view menu');
    assert.ok(contributes.viewsWelcome.some((w) => w.view === 'mcpHost.servers' && w.contents.includes('(command:mcpHost.chooseBuiltinMcp)')), 'the welcome text');
    assert.ok(contributes.walkthroughs[0].steps.some((s) => s.description.includes('(command:mcpHost.chooseBuiltinMcp)')), 'a walkthrough step');
  });
});

describe('the walkthrough ticks a step when the user did the thing (issue 41, item 9)', () => {
  const contributes = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { walkthroughs: { steps: { id: string; description: string; completionEvents?: string[] }[] }[] } }).contributes;
  const steps = contributes.walkthroughs[0].steps;
  const source = fs.readFileSync(path.join(repoRoot, 'src', 'vscode', 'walkthrough', 'walkthroughProgress.ts'), 'utf8');

  it('completes trust, call and prompt on context keys the extension sets, never on a button click', () => {
    for (const id of ['configure', 'trust', 'callTool', 'prompt']) {
      // Creating mcp.json is adding servers to it: that command is the thing done, not a way to it.
      const events = (steps.find((s) => s.id === id)!.completionEvents ?? []).filter((e) => e !== 'onCommand:mcpHost.createWorkspaceConfiguration');
      assert.ok(events.length, `${id}: completes on something`);
      for (const event of events) {
        const key = /^onContext:mcpHost\.did\.(\w+)$/.exec(event)?.[1];
        assert.ok(key, `${id}: ${event} is a context key of ours`);
        assert.ok(source.includes(`'${key}'`), `${id}: the extension sets mcpHost.did.${key}`);
      }
    }
  });

  it('says in each step what the step is, without its page (hidden when the editor is narrow)', () => {
    for (const step of steps) {
      const text = step.description.replace(/\[[^\]]*\]\([^)]*\)/g, '').trim();
      assert.ok(text.length >= 60 && text.length <= 260, `${step.id}: ${text.length} characters: ${text}`);
    }
  });
});
