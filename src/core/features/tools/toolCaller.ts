// The one path from any surface (the Servers view's Call Tool…, @mcp, agents, tool views, the CLI) to a tools/call:
// consent first, keyed in one place from the running server's definition as written, then the call with progress,
// the configured timeout restarted by progress, and cancellation that reaches the server (the SDK sends
// notifications/cancelled when the signal aborts). No surface calls a tool past it, so none can skip or mis-key consent.
import type { CallToolResult, Progress } from '@modelcontextprotocol/client';
import type { ActiveToolCalls } from './activeToolCalls';
import type { SessionPort } from '../../host/serverSession';
import { sessionForUse } from '../../host/sessionForUse';
import { offersFeatures, type Tool } from '../../host/serverInfo';
import type { ServerSession } from '../../host/serverSession';
import type { AdoptedCall, AdoptedTask, TaskCall, ToolTask } from '../tasks/toolTask';
import { BACKGROUND_CALL_TIMEOUT_MS, holdAtMost, stillRunningResult } from './backgroundCalls';
import { consentSubject } from '../consentSubject';
import type { AllowedReason, ConsentOutcome, ToolConsent } from './toolConsent';
import { sessionEndOf } from '../../host/sessionEnd';
import { toolCallCancelledError } from '../../presentation/toolCallText';
import { switchedOff, switchedOffMessage } from './toolSwitches';
import { argumentsNoLongerFit } from './toolArguments';

export interface ToolCall {
  serverId: string;
  tool: Tool;
  arguments: Record<string, unknown>;
  /** Human words for where the call comes from, e.g. `@mcp in chat: "…"` (shown by sampling dialogs). */
  origin: string;
  signal?: AbortSignal;
  onProgress?(progress: Progress): void;
  /** When the call runs as a task (see ToolTasks): the task exists; and what the signal does to it. */
  onTask?: TaskCall['onTask'];
  whenAborted?: TaskCall['whenAborted'];
  /**
   * The caller waits within a turn (@mcp, an agent, the gateway): after `mcpHost.tools.backgroundAfter` the call goes
   * on in the background and the caller gets a result saying so (see ./backgroundCalls.ts).
   */
  mayBackground?: boolean;
}

/** How the call reached the user, for the consent decision (see ToolCallSubject). */
export interface ConsentContext {
  /** The arguments came with the command, not from the user or the model: asked even under an "always allow". */
  argumentsFromCaller?: boolean;
  /** The user confirmed this very call with its arguments in front of them (a form's review, VS Code's confirmation). */
  confirmedByUser?: boolean;
  /** Who asks, when it is not the user or the model (shown in the dialog). */
  requestedBy?: string;
  /** Another program asks through the gateway: its name; "always" is remembered for it alone. */
  caller?: string;
  /** Wraps the question, when one is asked (a tool view counts the questions it causes). */
  asking?(ask: () => Promise<ConsentOutcome>): Promise<ConsentOutcome>;
  /** Consent was given (why: `reason`): the call starts now. */
  onAllowed?(reason: AllowedReason): void;
}

export type RefusedOutcome = Extract<ConsentOutcome, { allowed: false }>;

/** The call ran (its result, `isError` included), or consent refused it and nothing was sent. */
export type GuardedCallOutcome = { ran: true; result: CallToolResult } | { ran: false; consent: RefusedOutcome };

/** Consent given for this call, and only it: `run` sends it (with the signal and progress of where it runs). */
export type Authorization =
  | { allowed: true; reason: AllowedReason; run(how?: Pick<ToolCall, 'signal' | 'onProgress' | 'onTask' | 'whenAborted'>): Promise<CallToolResult> }
  | { allowed: false; consent: RefusedOutcome };

/** Where a call of a task-capable tool goes when its server runs tool calls as tasks: the window's tool tasks. */
export interface ToolTaskRunner {
  run(session: ServerSession, call: TaskCall): Promise<CallToolResult>;
  /** A plain call its caller stopped waiting for gets a row beside the tasks' (see ToolTasks.adopt). */
  adopt?(call: AdoptedCall): AdoptedTask;
}

export class ToolCaller {
  constructor(
    private readonly sessions: SessionPort,
    private readonly activeCalls: ActiveToolCalls,
    private readonly consent: ToolConsent,
    /** Where a call of a task-capable tool on a server that runs tool calls as tasks goes. */
    private readonly tasks?: ToolTaskRunner,
    /** How long a caller that may leave a call in the background waits for it (ms; 0: until it ends). */
    private readonly backgroundAfterMs?: () => number,
  ) {}

  /**
   * Asks consent as the call's context requires, then calls. Protocol errors, timeouts and a server that is not
   * running reject; cancellation (before or after the question) rejects with the signal's reason.
   */
  async call(call: ToolCall, context: ConsentContext = {}): Promise<GuardedCallOutcome> {
    const authorized = await this.authorize(call, context);
    if (!authorized.allowed) return { ran: false, consent: authorized.consent };
    return { ran: true, result: await authorized.run() };
  }

  /** Consent first, the call later: for a surface that shows progress only once the user has allowed the call. */
  async authorize(call: ToolCall, context: ConsentContext = {}): Promise<Authorization> {
    const server = this.sessions.servers().find((s) => s.id === call.serverId);
    // A dormant server's tools are offered as known from its last run: the call starts it (see send).
    if (!server || !offersFeatures(server.state)) throw new Error(`The MCP server of "${call.tool.name}" is not running.`);
    // Switched off (in the view or the server's entry): refused on this one path, whoever asks.
    const off = switchedOff(server, call.tool.name);
    if (off) throw new Error(switchedOffMessage(server.name, call.tool.name, off));
    const subject = {
      server,
      consentSubject: consentSubject(server.scope, server.name, server.definition),
      serverName: server.name,
      tool: call.tool,
      arguments: call.arguments,
      ...(context.argumentsFromCaller === undefined ? {} : { argumentsFromCaller: context.argumentsFromCaller }),
      ...(context.confirmedByUser === undefined ? {} : { confirmedByUser: context.confirmedByUser }),
      ...(context.requestedBy === undefined ? {} : { requestedBy: context.requestedBy }),
      ...(context.caller === undefined ? {} : { caller: context.caller }),
    };
    const decided = this.consent.decide(subject);
    const outcome = decided !== 'ask' ? decided : await (context.asking ?? ((ask) => ask()))(() => this.consent.check(subject));
    if (call.signal?.aborted) throw call.signal.reason;
    if (!outcome.allowed) return { allowed: false, consent: outcome };
    return {
      allowed: true,
      reason: outcome.reason,
      run: (how = {}) => {
        context.onAllowed?.(outcome.reason);
        return this.send({ ...call, ...how });
      },
    };
  }

  /**
   * A dormant server is started first (the session port does, trust and all), and the call is then checked against
   * what it offers now: a tool it no longer has is reported, never sent; one whose input schema changed is sent only
   * if the arguments fit the new schema (else reported, never sent), and called as it now is.
   */
  private async send(call: ToolCall): Promise<CallToolResult> {
    const wasRunning = this.sessions.servers().find((s) => s.id === call.serverId)?.state.kind === 'running';
    const session = await sessionForUse(this.sessions, call.serverId, `a call of ${call.tool.name}`, call.signal);
    if (!wasRunning) {
      const server = this.sessions.servers().find((s) => s.id === call.serverId);
      const tool = server?.features.tools.find((t) => t.name === call.tool.name);
      if (!tool) throw new Error(toolVanishedMessage(call.tool.name, session.serverName));
      // Arguments made for the schema known from the last run are checked against the one it offers now.
      const misfit = argumentsNoLongerFit(call.tool, tool, call.arguments, session.serverName);
      if (misfit) throw new Error(misfit);
      call = { ...call, tool };
    }
    return this.sendTo(session, call);
  }

  private sendTo(session: ServerSession, call: ToolCall): Promise<CallToolResult> {
    let end: (() => void) | undefined;
    try {
      const ended = (end = this.activeCalls.begin({ serverId: call.serverId, toolName: call.tool.name, origin: call.origin }));
      // A tool that says how it runs as a task, or any tool of a server whose every call may become one: the task
      // runner decides (see ToolTasks.run).
      const asTask = !!this.tasks && !!(call.tool.execution?.taskSupport || session.tasks?.anyCall);
      // A task the caller stopped waiting for runs on (its row says how it ends): not cancelled.
      const detached = asTask && call.whenAborted === 'detach';
      const afterMs = call.mayBackground && this.tasks?.adopt ? (this.backgroundAfterMs?.() ?? 0) : 0;
      // A call that may go on in the background is not ended by the request timeout: it moves (then its row has Cancel).
      const timeoutMs = afterMs > 0 ? BACKGROUND_CALL_TIMEOUT_MS : undefined;
      const start = (signal: AbortSignal | undefined, onProgress: ToolCall['onProgress'], onTask = call.onTask): Promise<CallToolResult> => {
        const sent = asTask ? this.tasks!.run(session, { ...call, signal, onProgress, onTask }) : session.callTool({ name: call.tool.name, arguments: call.arguments }, { signal, onProgress, tool: call.tool, timeoutMs });
        return sent.catch((e: unknown) => Promise.reject(detached && signal?.aborted ? e : cancelledOrAsIs(session, call, signal, e))).finally(ended);
      };
      return afterMs > 0 ? this.inBackgroundAfter(afterMs, session, call, asTask, start) : start(call.signal, call.onProgress);
    } catch (e) {
      // A session that just ended rejects, as every other failure does.
      end?.();
      return Promise.reject(e as Error);
    }
  }

  /** The one timer of every call that may go on in the background: a task's own row, or a row for a plain call. */
  private inBackgroundAfter(afterMs: number, session: ServerSession, call: ToolCall, asTask: boolean, start: (signal: AbortSignal, onProgress: ToolCall['onProgress'], onTask?: ToolCall['onTask']) => Promise<CallToolResult>): Promise<CallToolResult> {
    let made: ToolTask | undefined;
    let whenMade: ((task: ToolTask) => void) | undefined;
    const onTask = (task: ToolTask) => {
      made = task;
      call.onTask?.(task);
      whenMade?.(task);
    };
    const startedAt = Date.now();
    return holdAtMost({
      afterMs,
      signal: call.signal,
      onProgress: call.onProgress,
      start: (signal, onProgress) => start(signal, onProgress, onTask),
      moveToBackground: async ({ running, cancel, progress }) => {
        // A task has its row once the server made it (its end, or its call's answer, comes first otherwise).
        if (asTask) return { key: (made ?? (await new Promise<ToolTask>((resolve) => (whenMade = resolve)))).key };
        const { serverId, tool, arguments: args, origin } = call;
        const adopted = this.tasks!.adopt!({ serverId, serverName: session.serverName, tool, arguments: args, origin, startedAt, movedAfterMs: afterMs, running, cancel, progress });
        return { key: adopted.task.key, progressed: adopted.progressed };
      },
      stillRunning: (key) => stillRunningResult(call.tool.name, session.serverName, afterMs, key),
    });
  }
}

/**
 * A call that ended because it was cancelled (by the caller's signal, or by its server's stop or restart) is logged at
 * info and rejected with words that say who cancelled it; every other failure stays as it is.
 */
function cancelledOrAsIs(session: ServerSession, call: ToolCall, signal: AbortSignal | undefined, error: unknown): unknown {
  const by = signal?.aborted ? 'you' : sessionEndOf(error);
  if (!by) return error;
  const cancelled = toolCallCancelledError(call.tool.name, session.serverName, by);
  session.log.info(`${cancelled.message} (${call.origin})`);
  return cancelled;
}

/** A tool known from its server's last run that the server, now started, no longer offers: the call was not sent. */
export const toolVanishedMessage = (tool: string, serverName: string): string =>
  `The tool "${tool}" is no longer offered by the MCP server "${serverName}": it was known from the server's last run, and the server, now started, does not have it. The call was not sent.`;
