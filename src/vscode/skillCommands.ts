// "Open Skill File": from a skill or file row of the Servers view (the node: its click carries the arguments), or
// `(serverId, skillUri, fileUri)` from a link. Reading, verifying and showing load with the session layer.
import * as vscode from 'vscode';
import { CommandIds } from '../core/common/commandIds';
import type { SessionPort } from '../core/host/serverSession';
import type { LoadSessionLayer } from './sessionLayer';
import { RowNode } from './treeNode';

export function registerSkillCommands(port: SessionPort, session: LoadSessionLayer): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(CommandIds.openSkillFile, (...args: unknown[]) => {
      const [serverId, skillUri, fileUri] = args[0] instanceof RowNode ? (args[0].row.command?.arguments ?? []) : args;
      if (typeof serverId === 'string' && typeof skillUri === 'string') {
        return session().openSkillFile(port, serverId, skillUri, typeof fileUri === 'string' ? fileUri : undefined);
      }
      return vscode.window.showInformationMessage('Open a skill file from the Skills group of a running server in the MCP Servers view.');
    }),
  ];
}
