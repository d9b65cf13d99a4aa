// "MCP: Choose Between MCP Host and VS Code's Built-in MCP…" (and a click on the Servers view's row): the choice,
// offered whatever it was, also when VS Code's MCP support is off by a setting MCP Host did not write (the demo's user
// settings, a policy): then it can be turned on for this workspace. Loaded on demand (./coexistence holds the state
// and the notification).
import vscode = require('vscode');
import { labelText, plainText } from '../../core/presentation/serverText';
import { coexistenceOfferText } from '../../core/presentation/coexistenceNotice';
import type { CoexistenceChoices } from './coexistence';

type Item = vscode.QuickPickItem & { run: () => Promise<void> };

export async function pickCoexistence(c: CoexistenceChoices): Promise<void> {
  const mcpHost: Item = { label: '$(check) Let MCP Host run them', description: "VS Code's MCP support off in this workspace", run: () => c.letMcpHostRun() };
  let items: Item[];
  let now: string;
  if (c.builtinOn()) {
    now = "VS Code's built-in MCP support is on";
    items = [mcpHost, { label: '$(split-horizontal) Keep both', description: 'each server may run twice', run: () => c.keepBoth() }];
  } else if (c.turnedOffHere()) {
    now = "MCP Host runs them: VS Code's MCP support is off in this workspace";
    items = [
      { label: "$(debug-restart) Turn VS Code's MCP support back on here", description: 'it may then start these servers too', run: () => c.turnBuiltinBackOn() },
      { ...mcpHost, description: 'keep it so', run: async () => undefined },
    ];
  } else {
    now = "MCP Host runs them: VS Code's MCP support is off by your settings (chat.mcp)";
    items = [
      { ...mcpHost, description: 'keep it so', run: () => c.letMcpHostRun() },
      { label: "$(debug-restart) Turn VS Code's MCP support on in this workspace", description: 'it may then start these servers too', run: () => c.turnBuiltinOnHere() },
    ];
  }
  const shared = c.shared();
  const picked = await vscode.window.showQuickPick(items, {
    title: now,
    placeHolder: labelText(`Who runs ${shared.join(', ') || "this workspace's servers"}?`),
  });
  await picked?.run();
}

/** The notification, once per workspace (../coexistence decides when): which servers both would run, and the choice. */
export async function offerCoexistence(c: CoexistenceChoices, shared: string[], shown: (message: string) => void): Promise<void> {
  const letUs = 'Let MCP Host Run Them';
  const both = 'Keep Both';
  const message = plainText(coexistenceOfferText(shared, letUs));
  shown(message);
  const answer = await vscode.window.showInformationMessage(message, letUs, both);
  if (answer === letUs) await c.letMcpHostRun();
  else if (answer === both) await c.keepBoth();
}
