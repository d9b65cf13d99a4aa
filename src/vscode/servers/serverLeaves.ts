// What each tool, prompt, resource and template row of the Servers view shows, and what a click on it does.
import vscode = require('vscode');
import type { Prompt, Resource, ResourceTemplate, ServerInfo, Tool } from '../../core/host/serverInfo';
import { firstLine } from '../../core/presentation/serverText';
import { CommandIds } from '../../core/common/commandIds';
import type { HoverTexts } from './treeNode';
import { promptLabel, resourceLabel, templateDescription, toolLabel } from '../../core/presentation/serverPresentation';

export const checkbox = (on: boolean): vscode.TreeItemCheckboxState => (on ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked);

export /** What one tool, prompt, resource or template of a server shows. */
interface Leaf {
  /** With the item's key under its server, the node id. */
  kind: 'tool' | 'prompt' | 'resource' | 'resourceTemplate';
  label: string;
  description: string | undefined;
  /** Markdown, made when the row is hovered. */
  tooltip: (texts: HoverTexts) => string;
  icon: string;
  contextValue: string;
  /** What a click does. */
  command?: vscode.Command;
  /** A tool's switch (see ToolNode). */
  checkbox?: vscode.TreeItemCheckboxState;
}

export const toolLeaf = (tool: Tool, serverId: string, off?: 'file' | 'user', server?: ServerInfo): Leaf => ({
  kind: 'tool',
  label: toolLabel(tool),
  description: off === 'file' ? 'off in its file' : firstLine(tool.description),
  checkbox: off === 'file' ? undefined : checkbox(!off),
  tooltip: (texts) => texts.toolTooltip(tool, server && texts.toolSize?.(server, tool.name)),
  icon: 'tools',
  contextValue: 'mcpTool',
  command: { title: 'Call Tool…', command: CommandIds.callTool, arguments: [serverId, tool.name] },
});

export const promptLeaf = (prompt: Prompt, serverId: string): Leaf => ({
  kind: 'prompt',
  label: promptLabel(prompt),
  description: firstLine(prompt.description),
  tooltip: (texts) => texts.promptTooltip(prompt),
  icon: 'comment-discussion',
  contextValue: 'mcpPrompt',
  command: { title: 'Run Prompt…', command: CommandIds.runPrompt, arguments: [serverId, prompt.name] },
});

// A click opens a resource, or fills in a template, as in the Resources view; the context menu is that view's too (its
// commands take `(serverId, uri)`, `(serverId, uriTemplate)` or a node with `serverId` and `resource` or `template`).
export const resourceLeaf = (resource: Resource, serverId: string): Leaf => ({
  kind: 'resource',
  label: resourceLabel(resource),
  description: resource.mimeType,
  tooltip: (texts) => texts.resourceTooltip(resource),
  icon: 'file',
  contextValue: 'mcpResource',
  command: { title: 'Open Resource', command: CommandIds.openResource, arguments: [serverId, resource.uri] },
});

export const templateLeaf = (template: ResourceTemplate, serverId: string): Leaf => ({
  kind: 'resourceTemplate',
  label: resourceLabel(template),
  description: templateDescription(template),
  tooltip: (texts) => texts.templateTooltip(template),
  icon: 'file-symlink-file',
  contextValue: 'mcpResourceTemplate',
  command: { title: 'Open Resource Template', command: CommandIds.openResourceTemplate, arguments: [serverId, template.uriTemplate] },
});
