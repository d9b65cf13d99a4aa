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
  /** Characters of a tool description (or server instructions) a model gets at most. */
  descriptionCap: number;
  /** Tokens the offered tool definitions may take; 0: a share of the model's input limit. */
  contextBudget: number;
  /** How long @mcp, an agent or the gateway waits for a tool call before it goes on in the background (ms; 0: no limit). */
  backgroundAfterMs: number;
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
    descriptionCap: readNumber(c, 'tools.descriptionCap', NUMERIC_SETTINGS.descriptionCap),
    contextBudget: readNumber(c, 'tools.contextBudget', NUMERIC_SETTINGS.contextBudget),
    backgroundAfterMs: readNumber(c, 'tools.backgroundAfter', NUMERIC_SETTINGS.backgroundAfter) * NUMERIC_SETTINGS.backgroundAfter.msPerUnit,
    openViewsForAgentCalls: c.get<boolean>('apps.openForAgentCalls', true) !== false,
  };
}
