// Settings of tools and chat, read fresh each time they are needed.
import vscode = require('vscode');
import { NUMERIC_SETTINGS } from '../../core/config/numericSettings';
import { readNumber } from '../settings';
import { userValue } from '../../core/config/tightenedSettings';

export interface ToolSettings {
  /** Tools that declare `readOnlyHint` run without asking. */
  autoAllowReadOnly: boolean;
  /** How many rounds of tool calls one chat request may run. */
  maxToolRounds: number;
  /** How many tools one model request may carry; beyond it the model searches them. */
  maxToolsPerRequest: number;
  /** An agent's call of a tool with a view (MCP Apps) opens that view. */
  openViewsForAgentCalls: boolean;
}

export function readToolSettings(): ToolSettings {
  const c = vscode.workspace.getConfiguration('mcpHost');
  // Only the user's own value counts: a workspace must not switch off the questions that protect the user from it.
  return {
    autoAllowReadOnly: userValue<boolean | undefined>(c, 'tools.autoAllowReadOnly').user === true,
    maxToolRounds: readNumber(c, 'chat.maxToolRounds', NUMERIC_SETTINGS.maxToolRounds),
    maxToolsPerRequest: readNumber(c, 'chat.maxToolsPerRequest', NUMERIC_SETTINGS.maxToolsPerRequest),
    openViewsForAgentCalls: c.get<boolean>('apps.openForAgentCalls', true) !== false,
  };
}
