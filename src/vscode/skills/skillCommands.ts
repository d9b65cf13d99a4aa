// "Open Skill File": from a skill or file row of the Servers view (the node: its click carries the arguments), or
// `(serverId, skillUri, fileUri)` from a link; "Attach Skill to Chat" from a skill's row, or `(serverId, skillUri)`.
// Everything but the registration loads with the session layer.
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import type { ChatAttachments } from '../../core/features/resources/chatAttachments';
import type { SessionPort } from '../../core/host/serverSession';
import type { LoadSessionLayer } from '../sessionLayer';

export function registerSkillCommands(port: SessionPort, session: LoadSessionLayer, attachments: ChatAttachments): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(CommandIds.openSkillFile, (...args: unknown[]) => session().openSkillFileCommand(port, args)),
    vscode.commands.registerCommand(CommandIds.attachSkillToChat, (...args: unknown[]) => session().attachSkillCommand(port, attachments, args)),
  ];
}
