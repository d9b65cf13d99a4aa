// The rows of the MCP Host view's Servers tree: scopes, servers, their state, and what each running server offers. Scope and
// server nodes are kept and given newer snapshots (the view refreshes one server by its object); the rows under a
// server are rebuilt when it is. Ids are stable (server id + kind + name), so VS Code keeps expansion and selection.
import vscode = require('vscode');
export { Node, serverIdOf } from './treeNode';
import type { ConfigScope } from '../../core/config/serverDefinition';
import { offersFeatures, type Prompt, type ServerInfo, type Tool } from '../../core/host/serverInfo';
import type { RowNotice } from '../../core/presentation/coexistenceNotice';
import type { ConfigProblem } from '../config/configLoader';
import { CommandIds } from '../../core/common/commandIds';
import { switchedOff } from '../../core/features/tools/toolSwitches';
import { Node, nodeId, RowNode, themeIcon, type HoverTexts, type ServerRows } from './treeNode';
import { checkbox, promptLeaf, resourceLeaf, templateLeaf, toolLeaf, type Leaf } from './serverLeaves';
import {
  describeState,
  serverRowDescription,
  plural,
  scopeLabel,
  serverContextValue,
  serverIcon,
  stateExplanation,
  type StateExplanation,
} from '../../core/presentation/serverPresentation';

/** A row above the servers: what the user should know first, and a click that acts on it. */
export class NoticeNode extends Node {
  constructor(readonly notice: RowNotice) {
    super(nodeId('notice', notice.id), undefined, undefined);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.notice.label);
    item.id = this.id;
    item.description = this.notice.description;
    item.tooltip = this.notice.tooltip;
    item.iconPath = new vscode.ThemeIcon(this.notice.icon);
    item.contextValue = `mcpNotice.${this.notice.id}`;
    item.command = { title: this.notice.description, command: this.notice.command, arguments: this.notice.arguments };
    return item;
  }
}

/**
 * `3 problems — servers keep their last good definition`; a click opens the file at the first one. Counted as the
 * Problems panel counts the file (ours beside VS Code's own JSON checks), so the two never disagree.
 */
function showProblem(item: vscode.TreeItem, problem: ConfigProblem): void {
  const count = Math.max(problem.count, vscode.languages.getDiagnostics(problem.uri).length);
  item.description = describeProblem(count, problem.syntaxBroken);
  item.tooltip = `${problem.uri.fsPath}\n\n${item.description}. Click to go to ${count === 1 ? 'it' : 'the first'}.`;
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
  item.command = { title: 'Show Problem', command: 'vscode.open', arguments: [problem.uri, { selection: problem.range }] };
}

const describeProblem = (count: number, syntaxBroken: boolean): string => `${plural(count, 'problem')}${syntaxBroken ? ' — servers keep their last good definition' : ''}`;

export class ScopeNode extends Node {
  constructor(
    /** Replaced when its folder is renamed (the key stays). */
    public scope: ConfigScope,
    /** Replaced as the servers change: the view refreshes this node by its object. */
    public servers: ServerInfo[],
    public problem: ConfigProblem | undefined,
    /** The node of one of its servers; the view keeps them, to refresh one server's rows by its object. */
    private readonly serverNode: (info: ServerInfo, parent: ScopeNode) => ServerNode,
  ) {
    super(nodeId('scope', scope.key), undefined, undefined);
  }

  get running(): number {
    return this.servers.filter((s) => s.state.kind === 'running').length;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(scopeLabel(this.scope), vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    const dormant = this.servers.filter((s) => s.state.kind === 'dormant').length;
    item.description = `${this.running}/${this.servers.length} running${dormant ? ` · ${dormant} dormant` : ''}`;
    item.tooltip = this.scope.configPath;
    item.iconPath = new vscode.ThemeIcon(this.scope.kind === 'user' ? 'account' : 'root-folder');
    item.contextValue = `mcpScope.${this.scope.kind}`;
    if (this.problem) showProblem(item, this.problem);
    return item;
  }

  getChildren(): Node[] {
    return this.servers.map((s) => this.serverNode(s, this));
  }
}

/** A file's problems when the view has no folder level: a row of its own above the servers. */
export class ProblemNode extends Node {
  constructor(private readonly problem: ConfigProblem) {
    super(nodeId('problem', problem.scope.key), undefined, undefined);
  }

  getTreeItem(): vscode.TreeItem {
    const file = this.problem.scope.kind === 'user' ? 'mcp.json' : this.problem.uri.path.endsWith('/.mcp.json') ? '.mcp.json' : '.vscode/mcp.json';
    const item = new vscode.TreeItem(`${scopeLabel(this.problem.scope)}: ${file}`);
    item.id = this.id;
    item.contextValue = 'mcpConfigProblem';
    showProblem(item, this.problem);
    return item;
  }
}

export class ServerNode extends Node {
  constructor(
    /** Replaced with the server's newer snapshot: the view refreshes this node by its object. */
    public info: ServerInfo,
    parent: Node | undefined,
    private readonly rows?: ServerRows,
    /** Whether a running server first shows expanded (the view lists few servers); else collapsed. */
    private readonly expandWhenRunning: () => boolean = () => true,
    /** What a running server adds to a model request (the context budget), e.g. "≈3.2k tokens". */
    private readonly offerSize?: (info: ServerInfo) => string | undefined,
  ) {
    super(nodeId('server', info.id), parent, info.id);
  }

  override markdownTooltip(texts: HoverTexts): string {
    return texts.serverTooltip(this.info, this.size());
  }

  private size(): string | undefined {
    const { kind } = this.info.state;
    return kind === 'running' || kind === 'dormant' ? this.offerSize?.(this.info) : undefined;
  }

  getTreeItem(): vscode.TreeItem {
    const { state } = this.info;
    // Nothing to list while starting. "Expanded when running" (in a view of few servers) is how VS Code first shows
    // the id; after that the user's own expand/collapse wins, as ids are stable.
    const collapsible =
      offersFeatures(state)
        ? this.expandWhenRunning()
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed
        : state.kind === 'starting'
          ? vscode.TreeItemCollapsibleState.None
          : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(this.info.name, collapsible);
    item.id = this.id;
    // Short: the whole state (describeState) is the tooltip's first line.
    const size = this.size();
    item.description = serverRowDescription(this.info, size);
    // A screen reader hears the state the short row leaves to its icon.
    item.accessibilityInformation = { label: `${this.info.name}, ${describeState(this.info)}${size ? `, ${size}` : ''}` };
    item.iconPath = themeIcon(serverIcon(this.info));
    item.contextValue = serverContextValue(this.info);
    // Its tools' switch, for those its file leaves on: on while any of them is (the tools' own rows say which).
    const offs = offersFeatures(state) ? this.info.features.tools.map((t) => switchedOff(this.info, t.name)).filter((off) => off !== 'file') : [];
    if (offs.length) item.checkboxState = checkbox(offs.includes(undefined));
    return item;
  }

  getChildren(): Node[] {
    const { info } = this;
    const explanation = stateExplanation(info);
    // A dormant server lists what it offered at its last run, under a row that says so.
    if (explanation && info.state.kind !== 'dormant') return [new StateNode(info, explanation, this)];
    if (!offersFeatures(info.state)) return [];
    const { features, capabilities } = info;
    // A group shows when the server declared the capability, or sent items anyway: an empty "Tools (0)" then says
    // the server has none, rather than hiding it.
    const groups: Node[] = explanation ? [new StateNode(info, explanation, this)] : [];
    if (capabilities?.tools || features.tools.length) groups.push(new ToolsGroup(info, this));
    // Only its tools known (dormant): the rows computed for it say that the rest is not known, and start it.
    if (info.knownToolsOnly) return [...groups, ...(this.rows?.(info) ?? []).map((row) => new RowNode(row, this))];
    if (capabilities?.prompts || features.prompts.length) groups.push(new PromptsGroup(info, this));
    if (capabilities?.resources || features.resources.length || features.resourceTemplates.length) {
      groups.push(new ResourcesGroup(info, this));
    }
    groups.push(...(this.rows?.(info) ?? []).map((row) => new RowNode(row, this)));
    return groups.length ? groups : [new EmptyNode(info, this)];
  }
}

/** Why a server shows no features: its error, the reason it was not started, or that it is off. */
class StateNode extends Node {
  constructor(
    private readonly info: ServerInfo,
    private readonly explanation: StateExplanation,
    parent: Node,
  ) {
    super(nodeId('state', info.id), parent, info.id);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.explanation.label);
    item.id = this.id;
    item.tooltip = this.explanation.tooltip;
    item.iconPath = themeIcon(this.explanation.icon);
    item.contextValue = 'mcpServerState';
    if (this.explanation.action === 'showOutput') {
      item.command = { title: 'Show Output', command: CommandIds.showOutput, arguments: [this.info.id] };
    } else if (this.explanation.action === 'manageWorkspaceTrust') {
      item.command = { title: 'Manage Workspace Trust', command: 'workbench.trust.manage' };
    } else if (this.explanation.action === 'trust') {
      item.command = { title: 'Trust Server…', command: CommandIds.trustServer, arguments: [this.info.id] };
    } else if (this.explanation.action === 'signIn') {
      item.command = { title: 'Sign In', command: CommandIds.signInToServer, arguments: [this.info.id] };
    } else if (this.explanation.action === 'enable') {
      item.command = { title: 'Enable Server', command: CommandIds.enableServer, arguments: [this.info.id] };
    }
    return item;
  }
}

class EmptyNode extends Node {
  constructor(info: ServerInfo, parent: Node) {
    super(nodeId('empty', info.id), parent, info.id);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('No tools, prompts or resources');
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('info');
    return item;
  }
}

abstract class GroupNode extends Node {
  constructor(
    protected readonly info: ServerInfo,
    private readonly kind: 'tools' | 'prompts' | 'resources',
    private readonly label: string,
    private readonly count: number,
    parent: Node,
  ) {
    super(nodeId(kind, info.id), parent, info.id);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(
      `${this.label} (${this.count})`,
      this.count ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    item.contextValue = `mcpGroup.${this.kind}`;
    // Cut short at the cap on one list: marked, and the hover says why.
    const cut = this.info.features.incomplete?.[this.kind];
    if (cut) [item.description, item.tooltip, item.iconPath] = ['incomplete', cut, new vscode.ThemeIcon('warning')];
    return item;
  }
}

class ToolsGroup extends GroupNode {
  constructor(info: ServerInfo, parent: Node) {
    super(info, 'tools', 'Tools', info.features.tools.length, parent);
  }

  getChildren(): Node[] {
    return leafNodes(this.info.features.tools, (t) => t.name, (t, key) => new ToolNode(t, key, this, switchedOff(this.info, t.name), this.info));
  }
}

class PromptsGroup extends GroupNode {
  constructor(info: ServerInfo, parent: Node) {
    super(info, 'prompts', 'Prompts', info.features.prompts.length, parent);
  }

  getChildren(): Node[] {
    return leafNodes(this.info.features.prompts, (p) => p.name, (p, key) => new PromptNode(p, key, this));
  }
}

/** Resources, then templates: both are things to read, templates once their variables are filled in. */
class ResourcesGroup extends GroupNode {
  constructor(info: ServerInfo, parent: Node) {
    super(info, 'resources', 'Resources', info.features.resources.length + info.features.resourceTemplates.length, parent);
  }

  getTreeItem(): vscode.TreeItem {
    const item = super.getTreeItem();
    const templates = this.info.features.resourceTemplates.length;
    if (templates) item.description = `incl. ${plural(templates, 'template')}${item.description ? ' · incomplete' : ''}`;
    return item;
  }

  getChildren(): Node[] {
    // Keyed by URI: resource names need not be unique, URIs are.
    return [
      ...leafNodes(this.info.features.resources, (r) => r.uri, (r, key) => Object.assign(new LeafNode(resourceLeaf(r, this.info.id), key, this), { resource: r })),
      ...leafNodes(this.info.features.resourceTemplates, (t) => t.uriTemplate, (t, key) => Object.assign(new LeafNode(templateLeaf(t, this.info.id), key, this), { template: t })),
    ];
  }
}

class LeafNode extends Node {
  constructor(
    private readonly leaf: Leaf,
    key: string,
    parent: Node,
  ) {
    super(nodeId(leaf.kind, parent.serverId ?? '', key), parent, parent.serverId);
  }

  override markdownTooltip(texts: HoverTexts): string {
    return this.leaf.tooltip(texts);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.leaf.label);
    item.id = this.id;
    item.description = this.leaf.description;
    item.iconPath = new vscode.ThemeIcon(this.leaf.icon);
    item.contextValue = this.leaf.contextValue;
    item.command = this.leaf.command;
    item.checkboxState = this.leaf.checkbox;
    return item;
  }
}

/**
 * A tool of a running server. Its menu commands receive this node, so it carries the tool itself; a click opens the
 * tool's call form.
 */
export class ToolNode extends LeafNode {
  constructor(
    readonly tool: Tool,
    key: string,
    parent: Node,
    /** Switched off (see toolSwitches): by its file, the row only says so; by the user, its checkbox is clear. */
    off?: 'file' | 'user',
    /** Its server: the tooltip says the tool's size in a model request. */
    server?: ServerInfo,
  ) {
    super(toolLeaf(tool, parent.serverId ?? '', off, server), key, parent);
  }
}

/** A prompt of a running server; a click runs it (its arguments asked first), without any language model. */
export class PromptNode extends LeafNode {
  constructor(
    readonly prompt: Prompt,
    key: string,
    parent: Node,
  ) {
    super(promptLeaf(prompt, parent.serverId ?? ''), key, parent);
  }
}

/**
 * One node per item. Names should be unique per server, but a duplicate from a faulty server must not break the whole
 * view (VS Code rejects duplicate ids), so repeated keys get a counter.
 */
function leafNodes<T>(items: T[], key: (item: T) => string, node: (item: T, key: string) => Node): Node[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const k = key(item);
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    return node(item, n === 1 ? k : `${k}#${n}`);
  });
}
