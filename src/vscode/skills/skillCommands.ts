// "Open Skill File": from a skill or file row of the Servers view (the node: its click carries the arguments), or
// `(serverId, skillUri, fileUri)` from a link; "Attach Skill to Chat" from a skill's row, or `(serverId, skillUri)`.
// Everything but the registration (./skillDocuments.lazy.ts) loads on demand.
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import type { ChatAttachments } from '../../core/features/resources/chatAttachments';
import type { SessionPort } from '../../core/host/serverSession';

/** What the two commands do, with the arguments they were given. */
export interface SkillCommandParts {
  openSkillFileCommand(port: SessionPort, args: unknown[]): Promise<void> | undefined;
  attachSkillCommand(port: SessionPort, attachments: ChatAttachments, args: unknown[]): Promise<void>;
}

export function registerSkillCommands(port: SessionPort, skills: SkillCommandParts, attachments: ChatAttachments): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(CommandIds.openSkillFile, (...args: unknown[]) => skills.openSkillFileCommand(port, args)),
    vscode.commands.registerCommand(CommandIds.attachSkillToChat, (...args: unknown[]) => skills.attachSkillCommand(port, attachments, args)),
  ];
}
