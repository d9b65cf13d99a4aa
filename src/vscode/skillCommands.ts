// "Open Skill File": from a skill or file row of the Servers view (the node: its click carries the arguments), or
// `(serverId, skillUri, fileUri)` from a link. Everything but the registration loads with the session layer.
import * as vscode from 'vscode';
import { CommandIds } from '../core/common/commandIds';
import type { SessionPort } from '../core/host/serverSession';
import type { LoadSessionLayer } from './sessionLayer';

export function registerSkillCommands(port: SessionPort, session: LoadSessionLayer): vscode.Disposable[] {
  return [vscode.commands.registerCommand(CommandIds.openSkillFile, (...args: unknown[]) => session().openSkillFileCommand(port, args))];
}
