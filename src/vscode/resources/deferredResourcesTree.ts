// The Resources view's provider as VS Code receives it at activation: it builds the real one (./resourcesTree.lazy.ts,
// with its rows) when VS Code first asks for rows, so that a view nobody opens costs the activation nothing.
import vscode = require('vscode');
import { SlowStartAlarm } from '../../core/presentation/slowStartAlarm';
import { CoalescedRefresh } from '../coalescedRefresh';

/**
 * The classes the rows use that the activation bundle holds too (the Servers view's): handed over, so that each has one
 * copy at run time.
 */
export interface TreeKit {
  coalescedRefresh(apply: () => void): CoalescedRefresh;
  slowStartAlarm(show: () => void): SlowStartAlarm;
}

export const treeKit: TreeKit = {
  coalescedRefresh: (apply) => new CoalescedRefresh(apply),
  slowStartAlarm: (show) => new SlowStartAlarm(show),
};

/** A row of the view, as VS Code holds it (the rows are ./resourceNodes.lazy.ts's). */
export interface ResourceTreeNode {
  getTreeItem(): vscode.TreeItem;
}

/** What the view's provider does once built (./resourcesTree.lazy.ts). */
export interface ResourcesTree extends vscode.Disposable {
  readonly onDidChangeTreeData: vscode.Event<ResourceTreeNode | ResourceTreeNode[] | undefined>;
  readonly onDidChangeFileDecorations: vscode.Event<vscode.Uri[] | undefined>;
  /** Fires the server id of each subtree refreshed, or undefined when the whole view is. */
  readonly onDidRefresh: vscode.Event<string | undefined>;
  getTreeItem(node: ResourceTreeNode): vscode.TreeItem;
  resolveTreeItem(item: vscode.TreeItem, node: ResourceTreeNode): vscode.TreeItem;
  getChildren(node?: ResourceTreeNode): ResourceTreeNode[];
  getParent(node: ResourceTreeNode): ResourceTreeNode | undefined;
  /** The server's row, as the view shows it (after getChildren). */
  serverNode(serverId: string): ResourceTreeNode | undefined;
  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined;
  handleDrag(source: readonly ResourceTreeNode[], data: vscode.DataTransfer): void;
}

export class DeferredResourcesTree
  implements vscode.TreeDataProvider<ResourceTreeNode>, vscode.TreeDragAndDropController<ResourceTreeNode>, vscode.FileDecorationProvider, vscode.Disposable
{
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<ResourceTreeNode | ResourceTreeNode[] | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly _onDidChangeFileDecorations = new vscode.EventEmitter<vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this._onDidChangeFileDecorations.event;
  private readonly _onDidRefresh = new vscode.EventEmitter<string | undefined>();
  /** Fires the server id of each subtree refreshed, or undefined when the whole view is. */
  readonly onDidRefresh = this._onDidRefresh.event;
  readonly dragMimeTypes = ['text/uri-list'];
  readonly dropMimeTypes: string[] = [];
  private tree: ResourcesTree | undefined;
  private forwarding: vscode.Disposable[] = [];

  constructor(
    private readonly build: () => ResourcesTree,
    /** Whether a URI is one of a resource document (greyed when its server is down, even before the view is drawn). */
    private readonly isResourceDocument: (uri: vscode.Uri) => boolean,
  ) {}

  /** The real provider, built now if it was not. */
  get built(): ResourcesTree {
    if (!this.tree) {
      const tree = (this.tree = this.build());
      this.forwarding = [
        tree.onDidChangeTreeData((e) => this._onDidChangeTreeData.fire(e)),
        tree.onDidChangeFileDecorations((e) => this._onDidChangeFileDecorations.fire(e)),
        tree.onDidRefresh((e) => this._onDidRefresh.fire(e)),
      ];
    }
    return this.tree;
  }

  getTreeItem(node: ResourceTreeNode): vscode.TreeItem {
    return this.built.getTreeItem(node);
  }

  resolveTreeItem(item: vscode.TreeItem, node: ResourceTreeNode): vscode.TreeItem {
    return this.built.resolveTreeItem(item, node);
  }

  getChildren(node?: ResourceTreeNode): ResourceTreeNode[] {
    return this.built.getChildren(node);
  }

  getParent(node: ResourceTreeNode): ResourceTreeNode | undefined {
    return this.built.getParent(node);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    return this.tree || this.isResourceDocument(uri) ? this.built.provideFileDecoration(uri) : undefined;
  }

  handleDrag(source: readonly ResourceTreeNode[], data: vscode.DataTransfer): void {
    this.built.handleDrag(source, data);
  }

  dispose(): void {
    for (const d of this.forwarding) d.dispose();
    this.tree?.dispose();
    this._onDidChangeTreeData.dispose();
    this._onDidChangeFileDecorations.dispose();
    this._onDidRefresh.dispose();
  }
}
