// Which tools of a server are switched off, and how its calls are approved: the user's choices in the Servers view
// (remembered per workspace, and per user for user-level servers) and the server's entry (`tools`, `disabledTools`,
// `toolApproval`). Read by the one list of tools offered to models (toolNames) and the one guarded call path
// (toolCaller, toolConsent), so a tool switched off is neither offered nor callable anywhere.
import type { ConfigScope, RawServer, ToolApproval } from '../../config/serverDefinition';
import type { ToolChoices } from '../../host/serverInfo';

/** Where the user's choices are written (ToolChoiceStore). */
export interface ToolChoiceWriter {
  /** `'all'`: the server's checkbox, for all its tools (the ones it adds later too). */
  setOff(serverId: string, scope: Pick<ConfigScope, 'kind'>, tools: readonly string[] | 'all', off: boolean): Promise<void>;
  /** `definition`: the server's consentSubject, which the approval holds for (as an "always allow" does). */
  setApproval(serverId: string, scope: Pick<ConfigScope, 'kind'>, approval: ToolApproval | undefined, definition: string): Promise<void>;
}

/** A checkbox of the Servers view the user changed: a tool's, or (no `tool`) a server's, for all its tools. */
export interface ToolSwitch {
  serverId?: string;
  tool?: string;
  /** VS Code's TreeItemCheckboxState: 1 checked (on), 0 not. */
  state: number;
}

/** What the decisions read of a server (a ServerInfo is one). */
export interface ToolControlled {
  scope: Pick<ConfigScope, 'kind'>;
  definition: RawServer;
  toolChoices?: ToolChoices;
}

/** The tool is switched off by its server's entry (`tools` without it, or `disabledTools` with it). */
export const offInFile = (definition: RawServer, tool: string): boolean =>
  !(definition.tools ?? ['*']).some((name) => name === '*' || name === tool) || !!definition.disabledTools?.includes(tool);

/** Why the tool is not offered: switched off in its file, or by the user; undefined when it is on. */
export const switchedOff = (server: ToolControlled, tool: string): 'file' | 'user' | undefined =>
  offInFile(server.definition, tool) ? 'file' : userOff(server.toolChoices, tool) ? 'user' : undefined;

const userOff = (choices: ToolChoices | undefined, tool: string): boolean | undefined => (choices?.allOff ? !choices.on?.has(tool) : choices?.off?.has(tool));

/** The tool call is refused, in words: what happened and how to undo it. */
export const switchedOffMessage = (serverName: string, tool: string, why: 'file' | 'user'): string =>
  `The tool "${tool}" of MCP server "${serverName}" is switched off ${why === 'file' ? 'in its configuration file ("tools" or "disabledTools")' : 'in the MCP Servers view (its checkbox)'}: it was not called.`;

const STRICTNESS: Record<ToolApproval, number> = { askEveryCall: 2, askUnlessReadOnly: 1, neverAsk: 0 };

/**
 * How the server's calls are approved. The user's choice (or, without one, the read-only setting) for user-level
 * servers, where the file's value is the default; a workspace file can only tighten, and "never ask" is the user's
 * alone. The choice holds for the definition it was made for (`consentSubject`, as an "always allow"): another command
 * or URL a file later puts under the server's name does not inherit it.
 */
export function approvalOf(server: ToolControlled, autoAllowReadOnly: boolean, consentSubject: string): ToolApproval {
  const inFile = server.definition.toolApproval;
  const choices = server.toolChoices;
  const chosen = choices?.approvalFor === consentSubject ? choices.approval : undefined;
  const setting: ToolApproval = autoAllowReadOnly ? 'askUnlessReadOnly' : 'askEveryCall';
  if (server.scope.kind === 'user') return chosen ?? inFile ?? setting;
  const own = chosen === 'neverAsk' ? 'askUnlessReadOnly' : (chosen ?? setting);
  return inFile && STRICTNESS[inFile] > STRICTNESS[own] ? inFile : own;
}
