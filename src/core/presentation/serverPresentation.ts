// How servers read on screen: labels, descriptions, codicon ids and Markdown tooltips shared by the tree, the status bar
// and the quick picks. Pure functions without `vscode`, so they are unit-tested in plain Node; the adapters wrap the
// results in TreeItems, ThemeIcons and MarkdownStrings.
//
// Tooltips are built from data the user did not write (tool descriptions, server instructions): every such text goes
// through serverText, so a server cannot inject links, images (which would load remote URLs on hover) or fake formatting.
// Definitions are shown without header or env values, and URLs without credentials or query values: they hold secrets.
import type { ConfigScope, RawServer } from '../config/serverDefinition';
import type { AuthStatus } from '../auth/authStatus';
import { escapeMarkdown, firstLine, heading, inlineCode, markdownLine, plainText, truncate } from './serverText';
import type { Prompt, Resource, ResourceTemplate, ServerCapabilities, ServerFeatures, ServerInfo, Tool } from '../host/serverInfo';

/** A codicon id (as in `$(id)`) and an optional theme color id. */
export interface Codicon {
  id: string;
  color?: string;
}

/** Longest server instructions shown in a tooltip: they can be pages long and a hover is not a document. */
export const INSTRUCTIONS_MAX_CHARS = 500;

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

// ---- State ----------------------------------------------------------------------------------------------------------

/** A remote server's sign-in state: `signed in as alice@example.com`, `needs sign-in`, `sign-in failed`. */
export function describeAuth(auth: AuthStatus | undefined): string | undefined {
  switch (auth?.kind) {
    case 'signedIn':
      return auth.account ? `signed in as ${auth.account}` : `signed in at ${auth.authorizationServer}`;
    case 'needsSignIn':
      return 'needs sign-in';
    case 'failed':
      return 'sign-in failed';
    default:
      return undefined;
  }
}

/** The one child a server shows instead of its features when it is not running: what happened and where to look. */
export interface StateExplanation {
  label: string;
  tooltip: string;
  icon: Codicon;
  /**
   * What clicking it does: the server's log tells when and why; Restricted Mode is lifted by granting Workspace Trust;
   * a server not trusted shows what it runs and asks; a server disabled in its file is enabled there.
   */
  action?: 'showOutput' | 'manageWorkspaceTrust' | 'signIn' | 'enable' | 'trust';
}

/** Everything a surface shows of a server's state, derived from it in one place. */
export interface StateDisplay {
  /**
   * The short state beside the name, short enough for a narrow view: `running · 17 tools`, `starting…`, `not trusted`.
   * What does not fit (the account, confinement) is in `summary`, the tooltip's first line.
   */
  description: string;
  /** The whole state in one line: `running · 17 tools · signed in as …`, `running · 17 tools · confined, 2 denied`. */
  summary?: string;
  icon: Codicon;
  /**
   * `mcpServer.<state>`, then the sign-in state of a remote server that asked for it (`mcpServer.running.signedIn`,
   * `mcpServer.blocked.needsSignIn`, `mcpServer.error.signInFailed`): menus pick start/stop/restart by the first part
   * and Sign In / Sign Out by the second, so they match with `(\.|$)` after the state. A server that waits for the
   * user's trust is `mcpServer.untrusted`: its action is Trust…, not Start.
   */
  contextValue: string;
  /** Undefined while the server starts (nothing to explain yet) and when it runs (it shows its features). */
  explanation?: StateExplanation;
}

const SIGN_IN_CONTEXT = { signedIn: 'signedIn', needsSignIn: 'needsSignIn', failed: 'signInFailed' } as const;

/** How long a start may take before it shows as one: a spinner, and in the status bar its name and a way to cancel (an `npx` download takes a while). */
export const SLOW_START_MS = 2000;

/** Whether a server has been starting for SLOW_START_MS or more. */
export const isSlowStart = (info: ServerInfo, now: number): boolean => info.state.kind === 'starting' && now - info.state.since >= SLOW_START_MS;

/** When the next of these servers that are starting becomes a slow start (ms since epoch), if one will. */
export function nextSlowStart(servers: readonly ServerInfo[], now: number): number | undefined {
  let next: number | undefined;
  for (const { state } of servers) {
    if (state.kind !== 'starting') continue;
    const at = state.since + SLOW_START_MS;
    if (at > now && (next === undefined || at < next)) next = at;
  }
  return next;
}

/**
 * A server row's description with what its tools add to a model request (`size`, e.g. "≈3.2k tokens"): the state's
 * word and the size, short enough for a default-width sidebar beside a ten-letter name: the tool count is on its Tools
 * group, and whether the size is an estimate ("≈") in the tooltip (serverTooltip).
 */
export function serverRowDescription(info: ServerInfo, size: string | undefined, now = Date.now()): string {
  const shown = stateDisplay(info, now);
  if (!size) return shown.description;
  size = size.replace(/^≈/, '');
  const { state, confined, sandboxDenials } = info;
  const word = state.kind === 'dormant' || (state.kind === 'running' && !(confined && sandboxDenials?.length)) ? state.kind : shown.description;
  return `${word} · ${size}`;
}

/**
 * `now` decides the starting icon: still for the first SLOW_START_MS, then a spinner. Most starts take less, and a
 * spinner is drawn again on every frame, for every starting server.
 */
export function stateDisplay(info: ServerInfo, now = Date.now()): StateDisplay {
  const { state, auth } = info;
  const waitsForTrust = state.kind === 'blocked' && state.reason === 'untrusted';
  const contextValue = `mcpServer.${waitsForTrust ? 'untrusted' : state.kind}${auth ? `.${SIGN_IN_CONTEXT[auth.kind]}` : ''}`;
  const display = (description: string, icon: Codicon, explanation?: StateExplanation) => ({ description, icon, contextValue, explanation });
  switch (state.kind) {
    case 'running': {
      const signedIn = auth?.kind === 'signedIn' ? ` · ${describeAuth(auth)}` : '';
      // The tooltip's first line. What was denied is in the log and the notification (read from the server's output).
      const confined = info.confined ? ` · confined${info.sandboxDenials ? `, ${info.sandboxDenials.length} denied` : ''}` : '';
      const tools = `running · ${plural(info.features.tools.length, 'tool')}`;
      // The row stays short (a narrow view cut "running · 19 tools · con…"): confinement is its icon, denials replace the count.
      const denials = info.confined && info.sandboxDenials?.length;
      const icon = { id: info.confined ? 'lock' : 'pass-filled', color: denials ? 'list.warningForeground' : 'testing.iconPassed' };
      const startedFor = info.startedFor ? ` · started for ${plainText(info.startedFor).slice(0, 200)}` : '';
      return { ...display(denials ? `running · ${denials} denied` : tools, icon), summary: tools + signedIn + confined + startedFor };
    }
    case 'dormant': {
      const tools = `dormant · ${plural(info.features.tools.length, 'tool')}`;
      const known = 'known from its last run; starts when used';
      return { ...display(tools, { id: 'circle-large-outline' }, { label: 'Known from its last run', tooltip: `Dormant: ${known}.`, icon: { id: 'history' } }), summary: `${tools} (${known})` };
    }
    case 'starting':
      return display('starting…', { id: isSlowStart(info, now) ? 'loading~spin' : 'watch' });
    case 'error': {
      const icon = { id: 'error', color: 'testing.iconFailed' };
      if (auth && auth.kind !== 'signedIn') {
        const explanation: StateExplanation =
          auth.kind === 'needsSignIn'
            ? { label: firstLine(state.message), tooltip: `${state.message}\n\nClick to sign in.`, icon: { id: 'account' }, action: 'signIn' }
            : { label: firstLine(state.message) || 'Failed', tooltip: `${state.message}\n\nClick to show the server's output.`, icon, action: 'showOutput' };
        return display(describeAuth(auth)!, icon, explanation);
      }
      return display('error', icon, { label: firstLine(state.message) || 'Failed', tooltip: `${state.message}\n\nClick to show the server's output.`, icon, action: 'showOutput' });
    }
    case 'stopped':
      return display('stopped', { id: 'circle-outline' }, { label: 'Not running', tooltip: 'Start the server to see its tools, prompts and resources.', icon: { id: 'info' } });
    case 'blocked': {
      // Paused rather than off: the server waits for a decision of the user, not for a start.
      const paused = { id: 'debug-pause' };
      const explain = (icon: Codicon, action: StateExplanation['action']) => ({ label: firstLine(state.message), tooltip: state.message, icon, action });
      switch (state.reason) {
        case 'untrusted':
          // What to do, on the row a user reads first; the core's message (also the command line's) in its tooltip.
          return display('not trusted', paused, {
            label: 'Click to see what it runs and decide whether to trust it',
            tooltip: `${state.message}\n\nClick to see what it would run and decide whether to trust it.`,
            icon: { id: 'shield' },
            action: 'trust',
          });
        case 'restricted':
          return display('restricted mode', paused, explain({ id: 'workspace-untrusted' }, 'manageWorkspaceTrust'));
        case 'signIn':
          return display('needs sign-in', paused, explain({ id: 'account' }, 'signIn'));
        case 'disabled':
          // Its own context value: Enable Server on the row, not Start (which its file refuses).
          return { description: 'disabled in its file', icon: { id: 'circle-slash' }, contextValue: 'mcpServer.disabled', explanation: explain({ id: 'circle-slash' }, 'enable') };
        default:
          return display('stopped', { id: 'circle-outline' }, explain({ id: 'info' }, 'showOutput'));
      }
    }
  }
}

/** The whole state in one line (quick picks, tooltips, the command line): the row's description shows less. */
export const describeState = (info: ServerInfo): string => {
  const shown = stateDisplay(info);
  return shown.summary ?? shown.description;
};
export const serverIcon = (info: ServerInfo, now = Date.now()): Codicon => stateDisplay(info, now).icon;
export const serverContextValue = (info: ServerInfo): string => stateDisplay(info).contextValue;
export const stateExplanation = (info: ServerInfo): StateExplanation | undefined => stateDisplay(info).explanation;

export const scopeLabel = (scope: ConfigScope): string => (scope.kind === 'user' ? 'User' : scope.label);

// ---- Definitions and features -----------------------------------------------------------------------------------------

/** A URL without user info and with query values blanked: remote servers often take API keys there. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Unresolved ${...} variables make some URLs unparsable: keep only what precedes any query or credentials.
    return url.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
  }
  // Built by hand: URL.toString() would percent-encode the ellipsis.
  const keys = [...new Set(parsed.searchParams.keys())];
  const query = keys.length ? `?${keys.map((k) => `${encodeURIComponent(k)}=…`).join('&')}` : '';
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${query}`;
}

/** Quotes a command-line word only when it needs it, so the line reads like what was configured. */
const shellWord = (word: string): string => (word === '' || /[\s"']/.test(word) ? JSON.stringify(word) : word);

/** How the server is reached, in Markdown lines: command line or URL, and only the names of env variables and headers. */
export function transportLines(definition: RawServer): string[] {
  if (definition.type === 'stdio') {
    const lines = [`**Command:** ${inlineCode([definition.command, ...definition.args].map(shellWord).join(' '))}`];
    if (definition.cwd) lines.push(`**Working directory:** ${inlineCode(definition.cwd)}`);
    const env = Object.keys(definition.env);
    if (env.length) lines.push(`**Environment:** ${env.map(inlineCode).join(', ')} (values hidden)`);
    if (definition.envFile) lines.push(`**Env file:** ${inlineCode(definition.envFile)}`);
    return lines;
  }
  const lines = [`**URL (${definition.type}):** ${inlineCode(redactUrl(definition.url))}`];
  const headers = Object.keys(definition.headers);
  if (headers.length) lines.push(`**Headers:** ${headers.map(inlineCode).join(', ')} (values hidden)`);
  return lines;
}

/** `tools (listChanged)`, `resources (subscribe, listChanged)`, `logging`, ... */
export function capabilityList(capabilities: ServerCapabilities | undefined): string[] {
  if (!capabilities) return [];
  return Object.entries(capabilities)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => {
      const flags = typeof value === 'object' ? Object.keys(value as object).filter((k) => (value as Record<string, unknown>)[k] === true) : [];
      return flags.length ? `${name} (${flags.join(', ')})` : name;
    });
}

/** `17 tools · 3 prompts · 2 resources · 1 resource template`: only the kinds there are. */
export function featureCounts(features: ServerFeatures): string {
  return [
    [features.tools.length, 'tool'] as const,
    [features.prompts.length, 'prompt'] as const,
    [features.resources.length, 'resource'] as const,
    [features.resourceTemplates.length, 'resource template'] as const,
  ]
    .filter(([n]) => n > 0)
    .map(([n, word]) => plural(n, word))
    .join(' · ');
}

/** The server's hover: who it is, its state, how it is reached and what it offers. Markdown, to be rendered untrusted. */
export function serverTooltip(info: ServerInfo, size?: string): string {
  const lines: string[] = [`**${markdownLine(info.name)}** · ${escapeMarkdown(describeState(info))}`];
  // The row shows the figure without its "≈": what kind of figure it is, is said here.
  if (size) lines.push(`**In a model request:** ${markdownLine(size)}${size.startsWith('≈') ? ' (estimated until the chat model counts them)' : ''}`);
  if (info.state.kind === 'error') lines.push(`**Error:** ${escapeMarkdown(info.state.message)}`);
  const auth = describeAuth(info.auth);
  if (auth) lines.push(`**Account:** ${escapeMarkdown(auth)}`);
  if (info.state.kind === 'blocked') lines.push(`**Not started:** ${escapeMarkdown(info.state.message)}`);
  lines.push(`**Configured in:** ${escapeMarkdown(scopeLabel(info.scope))}`);
  if (info.serverInfo) {
    const { name, title, version } = info.serverInfo;
    lines.push(`**Server:** ${markdownLine(title && title !== name ? `${title} (${name})` : name)} ${markdownLine(version)}`);
  }
  if (info.protocolVersion) lines.push(`**Protocol:** ${markdownLine(info.protocolVersion)}`);
  lines.push(...transportLines(info.definition));
  const capabilities = capabilityList(info.capabilities);
  if (capabilities.length) lines.push(`**Capabilities:** ${escapeMarkdown(capabilities.join(', '))}`);
  if (info.pid !== undefined) lines.push(`**PID:** ${info.pid}`);
  const counts = featureCounts(info.features);
  if (counts) lines.push(`**Offers:** ${escapeMarkdown(counts)}`);
  if (info.crashCount > 0) lines.push(`**Recent crashes:** ${info.crashCount}`);
  const sections = [lines.join('  \n')];
  if (info.instructions?.trim()) {
    sections.push(`**Instructions:**  \n${escapeMarkdown(truncate(info.instructions.trim(), INSTRUCTIONS_MAX_CHARS))}`);
  }
  return sections.join('\n\n---\n\n');
}

/** The display name the MCP spec asks for: title, then the legacy annotation title, then the name. */
export const toolLabel = (tool: Tool): string => tool.title ?? tool.annotations?.title ?? tool.name;

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** `size`: what its definition adds to a model request (see contextBudget), e.g. "≈120 tokens". */
export function toolTooltip(tool: Tool, size?: string): string {
  const sections = [heading(toolLabel(tool), tool.name)];
  if (tool.description?.trim()) sections.push(escapeMarkdown(tool.description.trim()));
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(tool.inputSchema.required ?? []);
  const parameters = Object.entries(properties).map(([name, schema]) => {
    const s = (typeof schema === 'object' && schema !== null ? schema : {}) as { type?: unknown; description?: unknown };
    const type = typeof s.type === 'string' ? ` ${markdownLine(s.type)}` : '';
    const description = typeof s.description === 'string' && s.description.trim() ? ` — ${markdownLine(firstLine(s.description))}` : '';
    return `- ${inlineCode(name)}${type}${required.has(name) ? ' *(required)*' : ''}${description}`;
  });
  if (parameters.length) sections.push(`**Parameters:**\n\n${parameters.join('\n')}`);
  const hints = HINTS.filter((h) => tool.annotations?.[h] !== undefined).map((h) => `${h}: ${tool.annotations?.[h]}`);
  if (hints.length) sections.push(`**Annotations:** ${markdownLine(hints.join(', '))}`);
  if (size) sections.push(`**In a model request:** ${markdownLine(size)}`);
  return sections.join('\n\n');
}

export const promptLabel = (prompt: Prompt): string => prompt.title ?? prompt.name;

export function promptTooltip(prompt: Prompt): string {
  const sections = [heading(promptLabel(prompt), prompt.name)];
  if (prompt.description?.trim()) sections.push(escapeMarkdown(prompt.description.trim()));
  const args = (prompt.arguments ?? []).map(
    (a) =>
      `- ${inlineCode(a.name)}${a.required ? ' *(required)*' : ''}${a.description?.trim() ? ` — ${markdownLine(firstLine(a.description))}` : ''}`,
  );
  if (args.length) sections.push(`**Arguments:**\n\n${args.join('\n')}`);
  return sections.join('\n\n');
}

export const resourceLabel = (resource: Resource | ResourceTemplate): string => resource.title ?? resource.name;

/** Templates are marked as such: they cannot be read as they are, their variables need values first. */
export const templateDescription = (template: ResourceTemplate): string => ['template', template.mimeType].filter(Boolean).join(' · ');

// ---- Tree layout and status bar -------------------------------------------------------------------------------------

/**
 * Group servers under their scope when they come from several places: more than one workspace folder, or user servers
 * next to workspace ones. A single source needs no extra level.
 */
export function groupByScope(servers: ServerInfo[], workspaceFolderCount: number): boolean {
  if (workspaceFolderCount > 1) return true;
  return servers.some((s) => s.scope.kind === 'user') && servers.some((s) => s.scope.kind === 'workspace');
}

/** Servers per scope: workspace folders in the server manager's order, then the user's. */
export function serversByScope(servers: ServerInfo[]): { scope: ConfigScope; servers: ServerInfo[] }[] {
  const groups = new Map<string, { scope: ConfigScope; servers: ServerInfo[] }>();
  for (const s of servers) {
    const group = groups.get(s.scope.key) ?? { scope: s.scope, servers: [] };
    group.servers.push(s);
    groups.set(s.scope.key, group);
  }
  return [...groups.values()].sort((a, b) => Number(a.scope.kind === 'user') - Number(b.scope.kind === 'user'));
}

/**
 * What a change of the servers `ids` (the server manager's event) means to a view that shows `shown`: whether the list
 * itself changed (a server added or removed, or its folder renamed: the view is rebuilt), else the newer snapshots of
 * the servers named. The workbench draws every row of a refreshed subtree again, so one server's start should redraw
 * that server's rows only. Only the named servers are looked at.
 */
export function serverChanges(shown: ReadonlyMap<string, ServerInfo>, now: ReadonlyMap<string, ServerInfo>, ids: Iterable<string>): { list: boolean; changed: ServerInfo[] } {
  const changed: ServerInfo[] = [];
  for (const id of ids) {
    const was = shown.get(id);
    const is = now.get(id);
    if (!was || !is || was.scope !== is.scope) return { list: true, changed: [] };
    changed.push(is);
  }
  return { list: false, changed };
}

export interface StatusSummary {
  /** `$(server) MCP 3/4`; undefined when there is no server (the item hides). */
  text: string | undefined;
  tooltip: string;
  /** Screen readers get words, not `3/4`. */
  accessibleLabel: string;
  anyError: boolean;
}

export function statusSummary(servers: ServerInfo[]): StatusSummary {
  const running = servers.filter((s) => s.state.kind === 'running').length;
  const dormant = servers.filter((s) => s.state.kind === 'dormant').length;
  // Same names can exist in several scopes: name the scope then.
  const severalScopes = new Set(servers.map((s) => s.scope.key)).size > 1;
  const lines = servers.map((s) => {
    const where = severalScopes ? ` (${scopeLabel(s.scope)})` : '';
    const detail = s.state.kind === 'error' ? `: ${firstLine(s.state.message)}` : '';
    return `${s.name}${where}: ${describeState(s)}${detail}`;
  });
  return {
    text: servers.length ? `$(server) MCP ${running}/${servers.length}` : undefined,
    tooltip: [dormant ? `MCP servers (${dormant} dormant: started when used)` : 'MCP servers', ...lines].join('\n'),
    accessibleLabel: `MCP: ${running} of ${plural(servers.length, 'server')} running${dormant ? `, ${dormant} dormant` : ''}`,
    anyError: servers.some((s) => s.state.kind === 'error'),
  };
}

/** The status bar while servers take long to start (after a spinner): their names, and that a click cancels the start. */
export function slowStartSummary(slow: ServerInfo[]): { text: string; tooltip: string; accessibleLabel: string } {
  const what = slow.length === 1 ? slow[0].name : `${slow.length} MCP servers`;
  return {
    text: `Starting ${what}…`,
    tooltip: `${slow.map((s) => `${s.name} (${scopeLabel(s.scope)})`).join(', ')}: still starting (a first npx or uvx run downloads the server). Click to cancel.`,
    accessibleLabel: `Starting ${what}; activate to cancel`,
  };
}
