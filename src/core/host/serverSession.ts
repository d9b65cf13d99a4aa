// The session port: the one way features and adapters reach a running server. Requests take an AbortSignal, use the
// configured timeout (restarted by progress) and reject with the SDK's errors; a server that is not running gives a
// ServerNotRunningError that says its state in words. Only the host layer knows connections and the SDK Client.
import type {
  CallToolRequest,
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Progress,
  ReadResourceResult,
  ServerCapabilities,
  Task,
} from '@modelcontextprotocol/client';
import type { SkillFile } from '@modelcontextprotocol/client/ext/skills';
import type { Event } from '../common/events';
import type { ServerLog } from '../common/log';
import { describeServerState, type ServerInfo, type ServerState, type Skill, type Tool } from './serverInfo';

export interface SessionRequestOptions {
  signal?: AbortSignal;
  onProgress?(progress: Progress): void;
  /** Instead of the configured request timeout (ms, restarted by progress): a call that may go on in the background. */
  timeoutMs?: number;
}

export interface ServerSession {
  readonly serverId: string;
  readonly serverName: string;
  /** What the server declared in its handshake ({} before it). */
  readonly capabilities: ServerCapabilities;
  /** Connected: the handshake is done and the session has not ended. */
  readonly isOpen: boolean;
  /** The server's log: where a feature notes what went wrong with a request that is not the user's concern. */
  readonly log: ServerLog;
  /** The `Mcp-Session-Id` of a Streamable HTTP session (diagnostics; it changes when the session is renewed). */
  readonly transportSessionId: string | undefined;
  /** `tool` (when known) lets the SDK validate structured output against the tool's schema. */
  callTool(params: CallToolRequest['params'], options?: SessionRequestOptions & { tool?: Tool }): Promise<CallToolResult>;
  getPrompt(name: string, args: Record<string, string>, options?: SessionRequestOptions): Promise<GetPromptResult>;
  complete(params: CompleteRequest['params'], options?: SessionRequestOptions): Promise<CompleteResult>;
  /** Not cached: what is shown must be what the server has now. */
  readResource(uri: string, options?: SessionRequestOptions): Promise<ReadResourceResult>;
  subscribeResource(uri: string, options?: SessionRequestOptions): Promise<void>;
  unsubscribeResource(uri: string, options?: SessionRequestOptions): Promise<void>;
  /** The server has more resources than the pages loaded so far. */
  readonly hasMoreResources: boolean;
  /** Appends the next page of resources to the server's features. Concurrent calls share one request. */
  loadMoreResources(): Promise<void>;
  /** The server has more resource templates than the pages loaded so far. */
  readonly hasMoreResourceTemplates: boolean;
  /** Appends the next page of resource templates to the server's features. */
  loadMoreResourceTemplates(): Promise<void>;
  /** Reloads resources (as many pages as were loaded) and templates. */
  refreshResources(): Promise<void>;
  /**
   * Reads one file of a listed skill (`ref` relative to the skill's root, default its `SKILL.md`) and verifies it as
   * the SDK does (listed, size, digest; for `SKILL.md` the frontmatter): rejects with a `SkillVerificationError` when
   * a check fails, and then the file must not be used.
   */
  readSkillFile(skill: Skill, ref?: string, options?: SessionRequestOptions): Promise<SkillFile>;
  /** The session's task requests (features/tasks drives them); absent where the session cannot send them. */
  readonly tasks?: TaskRequests;
}

/**
 * The task requests of a session: what a tool call made as a task needs, on either wire (2025-11-25 experimental
 * tasks, or the 2026-07-28 tasks extension, whose `tasks/get` carries the result and which has no `tasks/list`).
 */
export interface TaskRequests {
  /**
   * `tools/call` with `task`: the task the server created, or the result itself when it ignored `task`. Its progress
   * notifications (`progressToken`, valid for the task's whole life) come through `onProgress`, not the options.
   */
  callTool(params: CallToolRequest['params'], task: { ttl?: number }, options?: Pick<SessionRequestOptions, 'signal'> & { progressToken?: string }): Promise<{ task: Task } | CallToolResult>;
  get(taskId: string, options?: SessionRequestOptions): Promise<Task>;
  /** `tasks/result`: the tool's result once the task is terminal (the server may hold the answer until then). */
  result(taskId: string, options?: SessionRequestOptions): Promise<CallToolResult>;
  cancel(taskId: string, options?: SessionRequestOptions): Promise<Task>;
  list(cursor?: string, options?: SessionRequestOptions): Promise<{ tasks: Task[]; nextCursor?: string }>;
  /**
   * Every `tools/call` may come back as a task, not only those of tools that declare task support: the 2026-07-28
   * tasks extension, where the server decides per request.
   */
  readonly anyCall?: boolean;
  /** The task statuses the server pushes (`notifications/tasks/status`), when it does. */
  readonly onStatus?: Event<Task>;
  /** Progress of a task-augmented call, by the `progressToken` it was sent with. */
  readonly onProgress?: Event<{ progressToken: string; progress: Progress }>;
}

/** Asked for a session of a server that is not running (stopped, starting, waiting, failed, or removed). */
export class ServerNotRunningError extends Error {
  constructor(
    readonly serverName: string,
    readonly state: ServerState | undefined,
  ) {
    super(`MCP server "${serverName}" is not running: ${state ? describeServerState(state) : 'it is no longer configured'}.`);
  }
}

/**
 * The ids of the servers that changed together: added, removed, or any part of their snapshot (state, definition,
 * scope, features, sign-in) replaced. A listener re-reads those servers only; an id no longer listed was removed.
 */
export type ServersChanged = readonly string[];

/** What features need of the host: the servers, the session of a running one, and when either changes. */
export interface SessionPort {
  servers(): ServerInfo[];
  /** The running server's session; throws a ServerNotRunningError otherwise. */
  session(serverId: string): ServerSession;
  readonly onDidChangeServers: Event<ServersChanged>;
  /** The session of a server about to be used (`use`: for what, in words): a dormant one is started first. */
  openSession?(serverId: string, use: string, signal?: AbortSignal): Promise<ServerSession>;
  /** A dormant server starts ahead of a use likely to come, only if that start asks the user nothing. */
  startEarly?(serverId: string, use: string): void;
}

/** The session of a running server, or undefined (for callers to whom "not running" is an ordinary answer). */
export function runningSession(port: SessionPort, serverId: string): ServerSession | undefined {
  try {
    return port.session(serverId);
  } catch (e) {
    if (e instanceof ServerNotRunningError) return undefined;
    throw e;
  }
}
