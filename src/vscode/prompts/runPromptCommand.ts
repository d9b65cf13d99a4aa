// "MCP: Run Prompt…": registered on activation; what runs it (./runPrompt: the picker, the request, the rendering)
// loads with the session layer when it is first run.
import vscode = require('vscode');
import type { LoadSessionLayer } from '../sessionLayer';
import { PromptNode } from '../servers/serverNodes';
import type { ExpandedPrompt, RunPromptDeps } from './runPrompt.lazy';
import { CommandIds } from '../../core/common/commandIds';

export type { ExpandedPrompt, RunPromptDeps } from './runPrompt.lazy';

export function registerRunPromptCommand(deps: RunPromptDeps, session: LoadSessionLayer): vscode.Disposable {
  /**
   * Arguments (all optional): a prompt item or server id, a prompt name, and values. Arguments without a value are
   * asked for. Resolves with the opened document, or undefined when cancelled.
   */
  function runPrompt(arg?: unknown, promptName?: unknown, given?: Record<string, string>): Promise<ExpandedPrompt | undefined> {
    const serverId = arg instanceof PromptNode ? arg.serverId : typeof arg === 'string' ? arg : undefined;
    const name = arg instanceof PromptNode ? arg.prompt.name : typeof promptName === 'string' ? promptName : undefined;
    return session().runPrompt(deps, arg !== undefined, serverId, name, given);
  }

  return vscode.commands.registerCommand(CommandIds.runPrompt, runPrompt);
}
