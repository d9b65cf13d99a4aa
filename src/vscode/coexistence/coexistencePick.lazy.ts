// "MCP: Choose Between MCP Host and VS Code's Built-in MCP…" (and a click on the Servers view's row): the choice,
// offered whatever it was, also when VS Code's MCP support is off by a setting MCP Host did not write (the demo's user
// settings, a policy): then it can be turned on for this workspace. Loaded on demand (./coexistence holds the state
// and the notification).
//
// Besides "MCP Host runs them" and "keep both", a third way (verified in VS Code 1.139): VS Code's MCP support stays
// on but starts no server by itself in this workspace (`chat.mcp.autostart: "never"`; without it, an agent request
// starts every server of .vscode/mcp.json a second time), and MCP Host's gateway, offered to it as the server "MCP
// Host", is what its agent uses: each server runs once, in MCP Host, and each tool is VS Code's own tool.
import vscode = require('vscode');
import { labelText, plainText } from '../../core/presentation/serverText';
import { coexistenceOfferText } from '../../core/presentation/coexistenceNotice';
import type { CoexistenceChoices } from './coexistence';

/** `viaGateway`: the item keeps (or makes) the gateway choice; any other leaves it. */
type Item = vscode.QuickPickItem & { run: () => Promise<void>; viaGateway?: boolean };

const chat = () => vscode.workspace.getConfiguration('chat');

/** The workspace's own `chat.mcp.autostart` before the gateway choice set "never" (null: none), or that it had "never". */
const AUTOSTART_BEFORE_KEY = 'mcpHost.coexistence.autostartBefore';
type AutostartBefore = { value: string | null; kept?: undefined } | { kept: true; value?: undefined };

/** VS Code's agent through the gateway: its MCP support on, starting nothing by itself here; the gateway on. */
async function useGateway(c: CoexistenceChoices): Promise<void> {
  const offHere = c.turnedOffHere();
  // Remembered before the settings change too: the gateway's offer to VS Code trusts a workspace setting that turns
  // VS Code's MCP support on against the user's own "none" only once a choice is made here (a repository's cannot).
  await c.remember('gateway');
  if (offHere) await c.turnBuiltinBackOn();
  else if (!c.builtinOn()) await c.turnBuiltinOnHere();
  // What the workspace had before, given back when the choice is left (a repository's own "never" is left as it was).
  const before = chat().inspect<string>('mcp.autostart')?.workspaceValue;
  if (before !== 'never') {
    await c.state.update(AUTOSTART_BEFORE_KEY, { value: before ?? null });
    await chat().update('mcp.autostart', 'never', vscode.ConfigurationTarget.Workspace);
  } else if (!c.state.get(AUTOSTART_BEFORE_KEY)) await c.state.update(AUTOSTART_BEFORE_KEY, { kept: true });
  await vscode.workspace.getConfiguration('mcpHost').update('gateway.enabled', true, vscode.ConfigurationTarget.Global);
  await c.remember('gateway');
}

/**
 * Leaving the gateway choice: VS Code starts servers by itself again, as the workspace had it before the choice (the
 * gateway stays as the user has it). A "never" the workspace had before the choice is its own, and stays.
 */
async function leaveGateway(c: CoexistenceChoices): Promise<void> {
  if (c.choice !== 'gateway') return;
  const before = c.state.get<AutostartBefore>(AUTOSTART_BEFORE_KEY);
  await c.state.update(AUTOSTART_BEFORE_KEY, undefined);
  if (before?.kept || chat().inspect('mcp.autostart')?.workspaceValue !== 'never') return;
  // Chosen before this was remembered: the "never" was the choice's.
  await chat().update('mcp.autostart', before ? (before.value ?? undefined) : undefined, vscode.ConfigurationTarget.Workspace);
}

export async function pickCoexistence(c: CoexistenceChoices): Promise<void> {
  const mcpHost: Item = { label: '$(check) Let MCP Host run them', description: "VS Code's MCP support off in this workspace: its agent uses MCP Host's two tools (List MCP Tools, Call MCP Tool)", run: () => c.letMcpHostRun() };
  const viaGateway: Item = {
    label: "$(radio-tower) Let MCP Host run them, and VS Code's agent use them through the gateway",
    description: 'each runs once',
    detail:
      "VS Code's MCP support stays on but starts no server by itself here (chat.mcp.autostart: \"never\"); MCP Host's gateway is turned on (every window) and offered to it as the server \"MCP Host\": Copilot's agent sees each tool as its own, MCP Host asks before each call.",
    run: () => useGateway(c),
    viaGateway: true,
  };
  let items: Item[];
  let now: string;
  if (c.builtinOn() && c.choice === 'gateway') {
    now = "MCP Host runs them; VS Code's agent uses them through the gateway";
    items = [
      { ...viaGateway, description: 'keep it so', run: () => useGateway(c) },
      mcpHost,
      { label: "$(debug-restart) Let VS Code's MCP support start them too", description: 'each server may run twice', run: () => c.remember('both') },
    ];
  } else if (c.builtinOn()) {
    now = "VS Code's built-in MCP support is on";
    items = [mcpHost, { label: '$(split-horizontal) Keep both', description: 'each server may run twice', run: () => c.remember('both') }, viaGateway];
  } else if (c.turnedOffHere()) {
    now = "MCP Host runs them: VS Code's MCP support is off in this workspace (its agent uses MCP Host's two tools, List MCP Tools and Call MCP Tool)";
    items = [
      { label: "$(debug-restart) Turn VS Code's MCP support back on here", description: 'it may then start these servers too', run: () => c.turnBuiltinBackOn() },
      { ...mcpHost, description: 'keep it so', run: async () => undefined },
      viaGateway,
    ];
  } else {
    now = "MCP Host runs them: VS Code's MCP support is off by your settings (chat.mcp; its agent uses MCP Host's two tools)";
    items = [
      { ...mcpHost, description: 'keep it so', run: () => c.letMcpHostRun() },
      { label: "$(debug-restart) Turn VS Code's MCP support on in this workspace", description: 'it may then start these servers too', run: () => c.turnBuiltinOnHere() },
      viaGateway,
    ];
  }
  const shared = c.shared();
  const picked = await vscode.window.showQuickPick(items, {
    title: now,
    placeHolder: labelText(`Who runs ${shared.join(', ') || "this workspace's servers"}?`),
  });
  if (!picked) return;
  if (!picked.viaGateway) await leaveGateway(c);
  await picked.run();
}

/** The notification, once per workspace (../coexistence decides when): which servers both would run, and the choice. */
export async function offerCoexistence(c: CoexistenceChoices, shared: string[], shown: (message: string) => void): Promise<void> {
  const letUs = 'Let MCP Host Run Them';
  const both = 'Keep Both';
  // The third way (VS Code's agent through the gateway) needs its explanation: the pick has it.
  const more = 'More Choices…';
  const message = plainText(coexistenceOfferText(shared, letUs, more));
  shown(message);
  const answer = await vscode.window.showInformationMessage(message, letUs, both, more);
  if (answer === letUs) await c.letMcpHostRun();
  else if (answer === both) await c.remember('both');
  else if (answer === more) await pickCoexistence(c);
}
