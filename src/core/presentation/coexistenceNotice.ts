import { CommandIds } from '../common/commandIds';
// What the Servers view says about VS Code's built-in MCP support next to MCP Host (see coexistence.ts). Pure, without
// `vscode`, so it is unit-tested in plain Node.

/** 'gateway': VS Code's MCP support stays on but starts no server itself; its agent uses MCP Host's through the gateway. */
export type CoexistenceChoice = 'mcpHost' | 'both' | 'gateway';
/** Where a workspace's state keeps the user's choice (a file cannot write it: the gateway's offer to VS Code reads it). */
export const COEXISTENCE_CHOICE_KEY = 'mcpHost.builtinMcp.choice';

/** A row above the servers in the Servers view: what it says, and the command a click runs. */
export interface RowNotice {
  /** Keeps the row's identity across refreshes. */
  id: string;
  label: string;
  description: string;
  tooltip: string;
  /** A codicon id. */
  icon: string;
  command: string;
  /** The command's arguments, when it takes any. */
  arguments?: unknown[];
}

/** What the Servers view shows about the built-in support, when there is something to show. */
export type CoexistenceNotice = RowNotice;

/**
 * Pure: the row for the Servers view. `builtinOn`: VS Code's MCP support may run this workspace's servers;
 * `turnedOffHere`: MCP Host's workspace setting is what turns it off; `shared`: the workspace servers both would run.
 */
export function coexistenceNotice(builtinOn: boolean, turnedOffHere: boolean, choice: CoexistenceChoice | undefined, shared: readonly string[]): CoexistenceNotice | undefined {
  if (!shared.length) return undefined;
  const row = (label: string, description: string, tooltip: string, icon: string): CoexistenceNotice => ({ id: 'builtinMcp', command: CommandIds.chooseBuiltinMcp, label, description, tooltip, icon });
  if (!builtinOn) {
    return turnedOffHere
      ? row(
          "VS Code's built-in MCP: off in this workspace",
          'MCP Host runs the servers',
          'MCP Host set chat.mcp.access to "none" in this workspace\'s settings so that no server runs twice. Click to turn VS Code\'s MCP support back on here.',
          'check',
        )
      : undefined;
  }
  const names = shared.join(', ');
  if (choice === 'gateway') {
    return row(
      "VS Code's agent uses them through MCP Host",
      'each runs once',
      `MCP Host runs ${names}; VS Code starts none itself here, its agent uses them through MCP Host's gateway. Click to change.`,
      'radio-tower',
    );
  }
  return choice === 'both'
    ? row(
        "VS Code's built-in MCP runs them too",
        'kept both',
        `VS Code's own MCP support may also start ${names}: each would run twice. You chose to keep both; click to change.`,
        'split-horizontal',
      )
    : row(
        "VS Code's built-in MCP would run them too",
        'click to choose',
        `VS Code's own MCP support reads the same .vscode/mcp.json and may also start ${names}: each would run twice. Click to let MCP Host run them alone, or to keep both.`,
        'warning',
      );
}

/** The command that changes the choice, as the Command Palette lists it. */
export const CHOOSE_BETWEEN_TITLE = "MCP Host: Choose Between MCP Host and VS Code's Built-in MCP…";

/**
 * Pure: the notification the first time both would run the same servers. It says how to tell the two apart (VS Code's
 * commands are "MCP: …") and where the choice is made again, so that a newcomer finds it later.
 */
export function coexistenceOfferText(shared: readonly string[], letUs: string, more: string): string {
  return (
    `VS Code's built-in MCP support reads the same configuration files as MCP Host: it would also start ${shared.join(', ')}, ` +
    `and each would run twice. "${letUs}" turns VS Code's MCP support off in this workspace only (chat.mcp.access: "none" in its settings); ` +
    `"${more}" also offers to keep it on for Copilot's agent, using MCP Host's servers through its gateway, each running once. ` +
    `VS Code's own commands are named "MCP: …", MCP Host's "MCP Host: …"; change this choice any time with "${CHOOSE_BETWEEN_TITLE}".`
  );
}
