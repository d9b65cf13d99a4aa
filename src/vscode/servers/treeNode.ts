// The base of every row of the "MCP Servers" view, and what rows share: stable ids, icons, untrusted Markdown.
import vscode = require('vscode');
import type { ServerInfo } from '../../core/host/serverInfo';
import type { Codicon, promptTooltip, serverTooltip, toolTooltip } from '../../core/presentation/serverPresentation';
import type { resourceTooltip, templateTooltip } from '../../core/presentation/resourcePresentation';

/** Unambiguous ids whatever the server ids and names contain. */
export const nodeId = (...parts: string[]): string => JSON.stringify(parts);

export const themeIcon = (icon: Codicon): vscode.ThemeIcon =>
  new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);

/**
 * The rows' Markdown tooltips, loaded on demand: only a hover needs them (a row that shows one belongs to a server,
 * whose start loaded them; else the hover does).
 */
export interface HoverTexts {
  serverTooltip: typeof serverTooltip;
  toolTooltip: typeof toolTooltip;
  promptTooltip: typeof promptTooltip;
  resourceTooltip: typeof resourceTooltip;
  templateTooltip: typeof templateTooltip;
  /** What a running server's tools add to a model request, e.g. "≈3.2k tokens"; `redraw` when counted (offerSizes.lazy). */
  offerSize?(info: ServerInfo, redraw: () => void): string | undefined;
  /** One offered tool's size, for its tooltip. */
  toolSize?(info: ServerInfo, tool: string): string | undefined;
}

import { markdown } from '../untrustedMarkdown';

export { markdown };

export abstract class Node {
  constructor(
    readonly id: string,
    readonly parent: Node | undefined,
    /** The server this node belongs to; undefined for scope groups. */
    readonly serverId: string | undefined,
  ) {}

  abstract getTreeItem(): vscode.TreeItem;

  /**
   * The row's Markdown tooltip, asked only when the row is hovered (`resolveTreeItem`). VS Code's extension host parses
   * a Markdown tooltip for links each time a row is sent: set in getTreeItem, that cost every refresh while servers
   * start, though nobody hovered.
   */
  markdownTooltip(_texts: HoverTexts): string | undefined {
    return undefined;
  }

  getChildren(): Node[] {
    return [];
  }
}

/** The tree provider's `resolveTreeItem`: the Markdown tooltip of the hovered row (untrusted, see `markdown`). */
export function resolveTooltip(item: vscode.TreeItem, node: Node, texts: HoverTexts): vscode.TreeItem {
  const tooltip = item.tooltip === undefined ? node.markdownTooltip(texts) : undefined;
  if (tooltip !== undefined) item.tooltip = markdown(tooltip);
  return item;
}

/** The id of the server a tree node belongs to: tree commands receive the node as their argument. */
export function serverIdOf(node: unknown): string | undefined {
  return node instanceof Node ? node.serverId : undefined;
}

/**
 * A row described as data: what lazy code computes for groups that exist only while a server runs (a server's skills
 * and tasks), so that their logic loads with it. Children are rows too; the command runs on a click.
 */
export interface TreeRow {
  key: string;
  label: string;
  description?: string;
  /** Markdown, untrusted. */
  tooltip?: string;
  icon?: Codicon;
  contextValue: string;
  command?: vscode.Command;
  children?: TreeRow[];
  /** Runs when the row is expanded (its children asked for): a dormant server's list that is not known starts it. */
  onExpand?(): void;
}

export class RowNode extends Node {
  constructor(
    readonly row: TreeRow,
    parent: Node,
  ) {
    super(nodeId('row', parent.id, row.key), parent, parent.serverId);
  }

  override markdownTooltip(): string | undefined {
    return this.row.tooltip || undefined;
  }

  getTreeItem(): vscode.TreeItem {
    const { row } = this;
    const item = new vscode.TreeItem(row.label, row.children?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = row.description;

    if (row.icon) item.iconPath = themeIcon(row.icon);
    item.contextValue = row.contextValue;
    item.command = row.command;
    return item;
  }

  getChildren(): Node[] {
    this.row.onExpand?.();
    return (this.row.children ?? []).map((child) => new RowNode(child, this));
  }
}

/** Rows a running server shows after its tools, prompts and resources (its skills and tasks). */
export type ServerRows = (info: ServerInfo) => TreeRow[];

/** The same rows from what knows them (./tools/taskRows.lazy.ts): `view` is told when they change. */
export type RunningServerRows = (info: ServerInfo, view: { refreshRows(): void; startFor(serverId: string, use: string): void }) => TreeRow[];
