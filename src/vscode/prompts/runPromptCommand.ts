// "MCP: Run Prompt…": registered on activation; what runs it (./runPrompt.lazy.ts: the picker, the request, the
// rendering) loads when it is first run.
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import type { SessionPort } from '../../core/host/serverSession';
import type { ChatDocuments } from '../chat/chatDocuments';
import type { ChatResources } from '../chat/registerChatParticipant';
import { PromptNode } from '../servers/serverNodes';

export interface RunPromptDeps {
  sessions: SessionPort;
  resources: Pick<ChatResources, 'read' | 'documentUri'>;
  /** Where the expanded prompt is kept, read-only: nothing asks to be saved. */
  documents: ChatDocuments;
}

export interface ExpandedPrompt {
  document: vscode.TextDocument;
  /** The messages as plain text: what "Copy" copies and "Send to Chat" puts in the chat input. */
  text: string;
}

/**
 * Runs a prompt: `(serverId, promptName)` (both undefined: the user picks one), and values; `invokedOn`: whether the
 * command was given a prompt at all. Arguments without a value are asked for.
 */
export type RunPrompt = (deps: RunPromptDeps, invokedOn: boolean, serverId: string | undefined, promptName: string | undefined, given?: Record<string, string>) => Promise<ExpandedPrompt | undefined>;

export function registerRunPromptCommand(deps: RunPromptDeps, run: RunPrompt): vscode.Disposable {
  /**
   * Arguments (all optional): a prompt item or server id, a prompt name, and values. Arguments without a value are
   * asked for. Resolves with the opened document, or undefined when cancelled.
   */
  function runPrompt(arg?: unknown, promptName?: unknown, given?: Record<string, string>): Promise<ExpandedPrompt | undefined> {
    const serverId = arg instanceof PromptNode ? arg.serverId : typeof arg === 'string' ? arg : undefined;
    const name = arg instanceof PromptNode ? arg.prompt.name : typeof promptName === 'string' ? promptName : undefined;
    return run(deps, arg !== undefined, serverId, name, given);
  }

  return vscode.commands.registerCommand(CommandIds.runPrompt, runPrompt);
}
