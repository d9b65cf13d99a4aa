// An agent's tool call (`mcpHost_callTool`) is resolved once, when VS Code prepares it, into an identity: the server
// (its id and consent subject), the tool (its name and a digest of what the server said about it) and the arguments.
// The confirmation is built from that identity, and the invoke runs that identity or nothing: a server that adds a
// colliding name, or changes the tool, between the two gets no call, and a decision taken without a confirmation
// (an "always allow", the read-only setting) never covers another tool than the one it was taken for.
import { hashOf } from '../../config/definitionHash';
import type { ServerInfo, Tool } from '../../host/serverInfo';
import type { SessionPort } from '../../host/serverSession';
import { resolveToolCall, type CallToolInput } from './agentTools';
import type { ConsentOutcome, ToolCallSubject, ToolConsent } from './toolConsent';
import { toolMapParts, toolNameMapOfServers, type NamedTool, type ToolNameMap } from './toolNames';

export interface AgentCallIdentity {
  readonly serverId: string;
  readonly serverName: string;
  readonly consentSubject: string;
  readonly toolName: string;
  /** What the server said about the tool when it was confirmed: a changed tool is another tool. */
  readonly toolDigest: string;
  readonly arguments: Record<string, unknown>;
}

export type PreparedCall =
  | { ok: true; identity: AgentCallIdentity; tool: NamedTool; decision: ConsentOutcome | 'ask' }
  | { ok: false; message: string };

export type CallToRun = { ok: true; tool: NamedTool; arguments: Record<string, unknown>; /** VS Code showed the confirmation, and the user allowed it. */ confirmedByUser: boolean } | { ok: false; message: string; denied?: boolean };

/** How long a prepared call waits for its invoke. */
const PREPARED_FOR_MS = 15 * 60_000;
/** The most prepared calls kept (a confirmation never answered leaves one behind). */
const MAX_PREPARED = 256;

/** Per tool object (a list from the server makes new ones): asked at each call's prepare and again at its invoke. */
const digests = new WeakMap<Tool, string>();
const toolDigest = (tool: Tool): string => {
  let digest = digests.get(tool);
  if (digest === undefined) digests.set(tool, (digest = hashOf(tool)));
  return digest;
};
const subjectOf = (identity: AgentCallIdentity, tool: Tool, servers: readonly ServerInfo[]): ToolCallSubject => ({
  consentSubject: identity.consentSubject,
  serverName: identity.serverName,
  tool,
  arguments: identity.arguments,
  server: servers.find((s) => s.id === identity.serverId),
});

export class AgentCalls {
  private readonly prepared = new Map<string, { identity: AgentCallIdentity; decision: ConsentOutcome | 'ask'; at: number }[]>();
  /** The last tool name map, with what it was made of: each call asks at its prepare and its invoke (2,000 tools). */
  private lastMap: { parts: readonly unknown[]; map: ToolNameMap } | undefined;

  /** The tool name map of `servers`, made again only when a running server, its definition or its tools changed. */
  private readonly mapOf = (servers: readonly ServerInfo[]): ToolNameMap => {
    const parts = toolMapParts(servers);
    const last = this.lastMap;
    if (last && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i])) return last.map;
    const map = toolNameMapOfServers(servers);
    this.lastMap = { parts, map };
    return map;
  };

  constructor(
    private readonly consent: Pick<ToolConsent, 'decide'>,
    private readonly now: () => number = Date.now,
    /** Where a dormant server is started: ahead of the call at its prepare, and waited for at its invoke. */
    private readonly starts: Pick<SessionPort, 'openSession' | 'startEarly'> = {},
  ) {}

  /** Resolves the call and decides what it needs (run, refuse, or VS Code's confirmation); remembered for its invoke. */
  prepare(servers: readonly ServerInfo[], input: CallToolInput): PreparedCall {
    const resolved = resolveToolCall(servers, input, this.mapOf);
    if (!resolved.ok) return resolved;
    const { tool } = resolved;
    const identity: AgentCallIdentity = {
      serverId: tool.serverId,
      serverName: tool.serverName,
      consentSubject: tool.consentSubject,
      toolName: tool.tool.name,
      toolDigest: toolDigest(tool.tool),
      arguments: resolved.arguments,
    };
    const decision = this.consent.decide(subjectOf(identity, tool.tool, servers));
    this.forgetOld();
    const key = keyOf(input);
    this.prepared.set(key, [...(this.prepared.get(key) ?? []), { identity, decision, at: this.now() }]);
    // A dormant server's start overlaps VS Code's way to the invoke (and the user's reading of the confirmation, if
    // one is shown): only a start that asks nothing, and not for a call already refused.
    if (mayRun(decision) && servers.find((s) => s.id === tool.serverId)?.state.kind === 'dormant') this.starts.startEarly?.(tool.serverId, useOf(identity));
    return { ok: true, identity, tool, decision };
  }

  /**
   * `take`, once the server of the prepared call runs: a dormant (or starting) one is started (or its start ahead of
   * the call waited for), and the call is then checked against what it offers now, not what was known from its last
   * run: a tool it no longer has, or one that differs from what was confirmed, is not called.
   */
  async takeOnceStarted(servers: () => readonly ServerInfo[], input: CallToolInput, signal?: AbortSignal): Promise<CallToRun> {
    const queue = this.prepared.get(keyOf(input));
    // Not started for a call that take refuses (see `mixed`).
    const entry = queue && !mixed(queue) ? queue[0] : undefined;
    const state = entry && servers().find((s) => s.id === entry.identity.serverId)?.state.kind;
    if (entry && mayRun(entry.decision) && (state === 'dormant' || state === 'starting') && this.starts.openSession) {
      try {
        await this.starts.openSession(entry.identity.serverId, useOf(entry.identity), signal);
      } catch (e) {
        // It did not start (or the caller gave up): the prepared call is used up, as a refused one is.
        this.take(servers(), input);
        throw e;
      }
    }
    return this.take(servers(), input);
  }

  /**
   * The call to run for an invoke: the identity prepared for this input, found again as it was. `ask` at prepare
   * time means VS Code showed the confirmation (and the invoke comes only if the user allowed it).
   */
  take(servers: readonly ServerInfo[], input: CallToolInput): CallToRun {
    this.forgetOld();
    const key = keyOf(input);
    const queue = this.prepared.get(key);
    if (queue && mixed(queue)) {
      this.prepared.delete(key);
      return { ok: false, message: 'This MCP tool call was prepared more than once, for different tools (a confirmation was declined or not answered): nothing was called. Call it again.' };
    }
    const entry = queue?.shift();
    if (queue && !queue.length) this.prepared.delete(key);
    if (!entry) {
      const unresolved = resolveToolCall(servers, input, this.mapOf);
      return unresolved.ok ? { ok: false, message: 'This MCP tool call was not prepared (nothing was confirmed for it): call it again.' } : unresolved;
    }
    const { identity } = entry;
    const tool = this.mapOf(servers).tools.find((t) => t.serverId === identity.serverId && t.consentSubject === identity.consentSubject && t.tool.name === identity.toolName);
    if (!tool) return { ok: false, message: `The MCP tool "${identity.toolName}" of server "${identity.serverName}" is no longer offered: nothing was called.` };
    if (toolDigest(tool.tool) !== identity.toolDigest) return { ok: false, message: `The MCP tool "${identity.toolName}" of server "${identity.serverName}" changed after it was confirmed: nothing was called. Call it again.` };
    const now = this.consent.decide(subjectOf(identity, tool.tool, servers));
    if (now !== 'ask' && !now.allowed) return { ok: false, message: 'The user denied this MCP tool (a saved decision). Do not retry it.', denied: true };
    // Decided without a confirmation then, but one is needed now (the "always allow" was withdrawn): not run unseen.
    if (now === 'ask' && entry.decision !== 'ask') return { ok: false, message: 'This MCP tool call needs the user\'s confirmation now: call it again.' };
    if (entry.decision !== 'ask' && !entry.decision.allowed) return { ok: false, message: 'The user denied this MCP tool (a saved decision). Do not retry it.', denied: true };
    return { ok: true, tool, arguments: identity.arguments, confirmedByUser: entry.decision === 'ask' };
  }

  private forgetOld() {
    const oldest = this.now() - PREPARED_FOR_MS;
    let count = 0;
    for (const [key, queue] of this.prepared) {
      const kept = queue.filter((e) => e.at >= oldest);
      if (kept.length) this.prepared.set(key, kept);
      else this.prepared.delete(key);
      count += kept.length;
    }
    for (const key of this.prepared.keys()) {
      if (count <= MAX_PREPARED) break;
      count -= this.prepared.get(key)!.length;
      this.prepared.delete(key);
    }
  }
}

/**
 * The same input prepared for different tools (the names shifted between, such as when a server started): a
 * confirmation the user declined leaves its prepared call behind, and which one the user allowed is unknown.
 */
const mixed = (queue: readonly { identity: AgentCallIdentity }[]): boolean => {
  const [first, ...rest] = queue.map(({ identity: i }) => `${i.serverId}\u0000${i.consentSubject}\u0000${i.toolName}\u0000${i.toolDigest}`);
  return rest.some((other) => other !== first);
};
const mayRun = (decision: ConsentOutcome | 'ask'): boolean => decision === 'ask' || decision.allowed;
const useOf = (identity: AgentCallIdentity): string => `a call of ${identity.toolName}`;

/** VS Code hands invoke the input prepareInvocation got; compared by content. */
const keyOf = (input: CallToolInput): string => hashOf(input ?? {});
