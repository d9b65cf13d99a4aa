// The host side of one view: the ext-apps AppBridge (the official MCP Apps host implementation) speaking JSON-RPC with
// the view over a transport, and every request the view makes answered here, by us:
// - `tools/call` only for tools of the view's own server that allow it (`visibility` with "app"), through the same
//   consent (naming the server and saying the view asks) and the same tool caller as any other call;
// - `ui/open-link` only for https: URLs, and only after the user agreed;
// - `ui/message` only after the user saw the text, and then it is put into the chat input, not sent;
// - size changes bounded; logs to the server's log; one question to the user at a time per view;
// - tool calls, questions to the user and log lines each at a bounded rate per view (viewRateLimits).
// The view gets the tool's input and result once it is initialized, and the host context (theme, colours, locale,
// display mode) as it changes. Loaded only when a view is shown: it brings the SDK and ext-apps.
import type { CallToolResult, Transport } from '@modelcontextprotocol/client';
import type { AppBridge, McpUiHostCapabilities, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import type { ServerLog } from '../../common/log';
import type { Tool } from '../../host/serverInfo';
import type { ToolCaller } from '../tools/toolCaller';
import { toolUi } from '../tools/toolUi';
import type { AppSandbox } from './appSandbox.lazy';
import { VIEW_DIALOG_RATE, VIEW_LOG_RATE, VIEW_TOOL_CALL_RATE, ViewRateLimit, type Rate } from './viewRateLimits.lazy';

/** Heights a view may ask for, in CSS pixels: never invisible, never a page tall enough to hide everything else. */
export const MIN_VIEW_HEIGHT = 32;
export const MAX_VIEW_HEIGHT = 4000;
/** The most text a view may put into the chat input. */
export const MAX_MESSAGE_LENGTH = 20_000;

export const boundedHeight = (height: unknown): number | undefined =>
  typeof height === 'number' && Number.isFinite(height) ? Math.round(Math.min(MAX_VIEW_HEIGHT, Math.max(MIN_VIEW_HEIGHT, height))) : undefined;

/** Only https: links leave the sandbox, and only as a URL the browser can open as it is. */
export function openableLink(url: unknown): URL | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && parsed.hostname && !parsed.username && !parsed.password ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export interface ViewQuestionSubject {
  serverName: string;
  /** The tool whose view asks. */
  toolName: string;
}

export interface AppViewHostDeps {
  /** The JSON-RPC channel to the view (the webview relays it to the sandboxed frame). */
  transport: Transport;
  serverId: string;
  serverName: string;
  /** The server's tools now (a view may call only its own server's, and only those that allow it). */
  tools(): readonly Tool[];
  /** The call whose result the view shows. */
  call: { tool: Tool; arguments: Record<string, unknown>; result: CallToolResult };
  sandbox: AppSandbox;
  /** The guarded path every tool call takes: consent (naming the view) first. */
  caller: ToolCaller;
  hostInfo: { name: string; version: string };
  hostContext: McpUiHostContext;
  /** Asks before a link opens; true = open it. */
  confirmOpenLink(q: ViewQuestionSubject & { url: string; domain: string }): Promise<boolean | undefined>;
  openExternal(url: string): Promise<boolean>;
  /** Shows the message the view wants to send; true = put it into the chat input. */
  confirmMessage(q: ViewQuestionSubject & { text: string }): Promise<boolean | undefined>;
  putInChat(text: string): Promise<void>;
  resize(height: number): void;
  log: ServerLog;
  /** The clock of the rate limits (tests); `Date.now` unless given. */
  now?: () => number;
}

export interface AppViewHost {
  /** The view finished its handshake and has the tool's input and result. */
  readonly initialized: Promise<void>;
  setHostContext(context: McpUiHostContext): void;
  /** Tells the view it goes away (it gets a moment to answer), then closes the channel. */
  teardown(): Promise<void>;
}

const TEARDOWN_TIMEOUT_MS = 1000;

const messageText = (content: readonly { type: string; text?: unknown }[]): string =>
  content
    .map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : `[${c.type}]`))
    .join('\n')
    .trim();

export async function startAppViewHost(deps: AppViewHostDeps): Promise<AppViewHost> {
  const { AppBridge } = await import('@modelcontextprotocol/ext-apps/app-bridge');
  const subject: ViewQuestionSubject = { serverName: deps.serverName, toolName: deps.call.tool.name };
  const requestedBy = `the view of tool "${deps.call.tool.name}"`;
  const capabilities: McpUiHostCapabilities = {
    openLinks: {},
    serverTools: {},
    logging: {},
    message: { text: {} },
    sandbox: { csp: deps.sandbox.csp, permissions: Object.fromEntries(deps.sandbox.permissions.map((p) => [p, {}])) },
  };
  const bridge: AppBridge = new AppBridge(null, deps.hostInfo, capabilities, { hostContext: deps.hostContext });

  const who = `View of "${deps.call.tool.name}"`;
  const limit = (rate: Rate, noun: string) => new ViewRateLimit(rate, noun, who, (line) => deps.log.warn(line), deps.now);
  const toolCalls = limit(VIEW_TOOL_CALL_RATE, 'tool calls');
  const questions = limit(VIEW_DIALOG_RATE, 'questions to the user');
  const logLines = limit(VIEW_LOG_RATE, 'log lines');

  // A view that asks again while its last question is open gets an error, not a queue of dialogs; one that asks
  // question after question is refused once over the rate.
  let asking = false;
  async function ask<T>(question: () => Promise<T>): Promise<T> {
    if (asking) throw new Error('The view is already waiting for an answer from the user.');
    questions.check();
    asking = true;
    try {
      return await question();
    } finally {
      asking = false;
    }
  }

  bridge.oncalltool = async (params, extra) => {
    toolCalls.check();
    const tool = deps.tools().find((t) => t.name === params.name);
    if (!tool) throw new Error(`Server "${deps.serverName}" has no tool "${params.name}".`);
    if (!toolUi(tool).appCallable) throw new Error(`The tool "${params.name}" is not callable from a view.`);
    const args = params.arguments ?? {};
    deps.log.info(`View of "${deps.call.tool.name}" calls tool "${tool.name}"`);
    // Only a call that will ask counts as a question to the user.
    const outcome = await deps.caller.call(
      { serverId: deps.serverId, tool, arguments: args, origin: `the view of "${deps.call.tool.name}" (${deps.serverName})`, signal: extra.mcpReq.signal },
      { requestedBy, asking: (question) => ask(question) },
    );
    if (!outcome.ran) throw new Error(`The user did not allow the tool "${tool.name}" to run.`);
    return outcome.result;
  };

  bridge.onopenlink = async ({ url }) => {
    const link = openableLink(url);
    if (!link) {
      if (logLines.allow()) deps.log.warn(`View of "${deps.call.tool.name}" asked to open a link that is not https: refused`);
      return { isError: true };
    }
    const yes = await ask(() => deps.confirmOpenLink({ ...subject, url: link.href, domain: link.hostname }));
    if (yes !== true) return { isError: true };
    return (await deps.openExternal(link.href)) ? {} : { isError: true };
  };

  bridge.onmessage = async ({ content }) => {
    const text = messageText(content ?? []);
    if (!text || text.length > MAX_MESSAGE_LENGTH) return { isError: true };
    const yes = await ask(() => deps.confirmMessage({ ...subject, text }));
    if (yes !== true) return { isError: true };
    await deps.putInChat(text);
    return {};
  };

  bridge.onrequestdisplaymode = async () => ({ mode: 'inline' });

  bridge.addEventListener('sizechange', ({ height }) => {
    const bounded = boundedHeight(height);
    if (bounded !== undefined) deps.resize(bounded);
  });

  bridge.addEventListener('loggingmessage', ({ level, data }) => {
    if (!logLines.allow()) return;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    deps.log[level === 'error' || level === 'critical' || level === 'alert' || level === 'emergency' ? 'error' : level === 'warning' ? 'warn' : 'info'](
      `[view of ${deps.call.tool.name}] ${text}`,
    );
  });

  const initialized = new Promise<void>((resolve) => {
    bridge.addEventListener('initialized', () => {
      void (async () => {
        try {
          await bridge.sendToolInput({ arguments: deps.call.arguments });
          await bridge.sendToolResult(deps.call.result);
        } catch (e) {
          deps.log.warn(`Could not give the view its tool result: ${(e as Error)?.message ?? e}`);
        }
        resolve();
      })();
    });
  });

  await bridge.connect(deps.transport);

  return {
    initialized,
    setHostContext: (context) => bridge.setHostContext(context),
    async teardown() {
      try {
        await bridge.teardownResource({}, { timeout: TEARDOWN_TIMEOUT_MS });
      } catch {
        // A view that does not answer is torn down all the same.
      }
      await bridge.close();
    },
  };
}
