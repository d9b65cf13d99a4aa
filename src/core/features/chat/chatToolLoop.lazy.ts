// The conversation with a language model that may call MCP tools: send, stream the answer, run the tools it asked
// for (each with the user's consent), give the results back, and again, for a bounded number of rounds.
import type { CallToolResult, Progress } from '@modelcontextprotocol/client';
import type { LanguageModel, ModelContentPart, ModelMessage, ModelPart, ModelResponsePart, ModelTool } from '../languageModel';
import type { ToolCaller } from '../tools/toolCaller';
import type { AllowedReason, ConsentOutcome } from '../tools/toolConsent';
import type { NamedTool, ToolNameMap } from '../tools/toolNames';
import { ToolOffer } from '../tools/toolOffer';
import { cancelledByOf, type CancelledBy } from '../../presentation/toolCallText';
import { schemaProblem, toolsNamedIn } from '../tools/toolSchemas.lazy';
import { toolCallToMcp, toolErrorToModel, toolResultToModel, type ConversionOptions } from './contentConversion.lazy';

type ModelToolCall = Extract<ModelResponsePart, { kind: 'toolCall' }>;

export type ToolCallEnd =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'refused'; consent: ConsentOutcome }
  | { kind: 'failed'; message: string }
  /** Cancelled by the user or by its server's stop or restart: `message` says which. */
  | { kind: 'cancelled'; by: CancelledBy; message: string };

/** What the user sees while the loop runs. */
export interface ToolLoopObserver {
  text(text: string): void;
  /** A tool was not offered to the model, and why. */
  toolNotOffered(tool: NamedTool, reason: string): void;
  /** `allowedBy`: why it runs (e.g. 'read-only': without asking, as its server annotates it read-only). */
  toolCallStarted(tool: NamedTool, args: Record<string, unknown>, allowedBy?: AllowedReason): void;
  toolProgress(tool: NamedTool, progress: Progress): void;
  toolCallEnded(tool: NamedTool, end: ToolCallEnd, args: Record<string, unknown>): void;
  /** The model searched the tools (there were more than one request carries) and found these. */
  toolsSearched?(query: string, found: readonly NamedTool[], total: number): void;
  /** The model wanted more tool rounds than allowed; its last calls were not run. */
  roundLimitReached(limit: number): void;
}

export interface ToolLoopOptions {
  model: Pick<LanguageModel, 'send'>;
  /** The conversation so far; the loop appends the model's turns and the tool results to a copy. */
  messages: readonly ModelMessage[];
  tools: ToolNameMap;
  maxRounds: number;
  /** The guarded path every tool call takes: consent first. */
  caller: Pick<ToolCaller, 'call'>;
  /** How a server's tool results are converted (resource links are read from that server). */
  conversion(serverId: string): ConversionOptions;
  /** Where the calls come from, for sampling dialogs, e.g. `@mcp in chat: "…"`. */
  origin: string;
  signal: AbortSignal;
  observer: ToolLoopObserver;
  /**
   * Tools beyond the MCP servers' that the user asked for (chat's `#tool` references), run by the editor, which asks
   * its own confirmation. Offered under their own names; a name an MCP tool has already keeps the MCP tool.
   */
  editorTools?: EditorTools;
  /**
   * Tools one request may carry (editor tools included). Beyond it the model gets a search tool instead of the MCP
   * tools, and the tools it finds from then on. Unlimited when not given.
   */
  maxTools?: number;
  /** Servers the user named: their tools are offered without a search (as many as fit). */
  mentionedServers?: readonly string[];
  /** Servers (ids) the context budget moved behind the search (see ToolOffer). */
  searchedServers?: ReadonlySet<string>;
  /** Characters of a tool description the model gets at most. */
  descriptionCap?: number;
}

export interface EditorTools {
  tools: ModelTool[];
  call(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<ModelContentPart[]>;
}

export interface ToolLoopResult {
  /** Tool rounds that ran. */
  rounds: number;
  limitReached: boolean;
  messages: ModelMessage[];
}

export const DENIED_MESSAGE = 'The user denied this tool call. Do not retry it; continue without it or explain what is missing.';

function offeredTools(tools: ToolNameMap, observer: ToolLoopObserver): ToolNameMap {
  const rejected = new Set<string>();
  for (const t of tools.tools) {
    const problem = schemaProblem(t.tool.inputSchema);
    if (problem) {
      rejected.add(t.modelName);
      observer.toolNotOffered(t, problem);
    }
  }
  return rejected.size ? tools.without(rejected) : tools;
}

export async function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult> {
  const { model, observer, signal } = options;
  const messages = options.messages.map((m) => ({ role: m.role, parts: [...m.parts] }));
  const all = offeredTools(options.tools, observer);
  const editorTools = (options.editorTools?.tools ?? []).filter((t) => !all.lookup(t.name));
  const editorToolNames = new Set(editorTools.map((t) => t.name));
  const offer = new ToolOffer(all, { maxTools: options.maxTools ?? Infinity, reserved: editorTools.length, mentionedServers: options.mentionedServers,
    searchedServers: options.searchedServers,
    descriptionCap: options.descriptionCap,
  });
  let rounds = 0;
  for (;;) {
    const turn = await streamTurn();
    if (turn === 'retry') continue;
    const { text, calls } = turn;
    const assistant: ModelPart[] = [];
    if (text) assistant.push({ kind: 'text', text });
    for (const c of calls) assistant.push({ kind: 'toolCall', callId: c.callId, name: c.name, input: inputObject(c.input) });
    if (assistant.length) messages.push({ role: 'assistant', parts: assistant });
    if (!calls.length) return { rounds, limitReached: false, messages };
    if (rounds >= options.maxRounds) {
      observer.roundLimitReached(options.maxRounds);
      return { rounds, limitReached: true, messages };
    }
    const results: ModelPart[] = [];
    for (const call of calls) results.push(await runCall(call));
    messages.push({ role: 'user', parts: results });
    rounds++;
  }

  /** One model request. A request the model API refuses because of some tools is retried without them. */
  async function streamTurn(): Promise<{ text: string; calls: ModelToolCall[] } | 'retry'> {
    let text = '';
    const calls: ModelToolCall[] = [];
    let produced = false;
    const offered: ModelTool[] = offer.tools();
    try {
      for await (const part of model.send({ messages, tools: [...offered, ...editorTools] }, signal)) {
        produced = true;
        if (part.kind === 'text') {
          text += part.text;
          observer.text(part.text);
        } else if (part.kind === 'toolCall') {
          calls.push(part);
        }
      }
    } catch (e) {
      if (signal.aborted || produced) throw e;
      const culprits = toolsNamedIn(String((e as Error)?.message ?? e), offered.map((t) => t.name)).filter((name) => offer.map.lookup(name));
      if (!culprits.length) throw e;
      for (const name of culprits) observer.toolNotOffered(offer.map.lookup(name)!, `the model refused it: ${(e as Error).message}`);
      offer.without(new Set(culprits));
      return 'retry';
    }
    return { text, calls };
  }

  /** A tool the user referenced in chat: the editor runs it (and asks its own confirmation). */
  async function runEditorTool(call: ModelToolCall): Promise<ModelPart> {
    try {
      const content = await options.editorTools!.call(call.name, inputObject(call.input), signal);
      return { kind: 'toolResult', callId: call.callId, content: content.length ? content : [{ kind: 'text', text: '(The tool returned no content.)' }] };
    } catch (e) {
      if (signal.aborted) throw e;
      return toolErrorToModel(call.callId, `The tool call failed: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  async function runCall(call: ModelToolCall): Promise<ModelPart> {
    if (editorToolNames.has(call.name)) return runEditorTool(call);
    if (offer.isSearch(call.name)) {
      const { query, found, text } = offer.search(inputObject(call.input));
      observer.toolsSearched?.(query, found, offer.map.tools.length);
      return { kind: 'toolResult', callId: call.callId, content: [{ kind: 'text', text }] };
    }
    const mcp = toolCallToMcp(call, offer.map);
    if (!mcp.ok) return toolErrorToModel(call.callId, mcp.error);
    const { tool } = mcp;
    try {
      // Consent and call on the one guarded path; the model hears of a refusal, the user sees it in the chat.
      const outcome = await options.caller.call(
        // A tool that runs as a task outlives the turn: a turn that ends stops waiting, the task runs on in the view; a
        // call still running after mcpHost.tools.backgroundAfter goes on in the background (the model is told so).
        { serverId: tool.serverId, tool: tool.tool, arguments: mcp.arguments, origin: options.origin, signal, onProgress: (p) => observer.toolProgress(tool, p), whenAborted: 'detach', mayBackground: true },
        { onAllowed: (reason) => observer.toolCallStarted(tool, mcp.arguments, reason) },
      );
      if (!outcome.ran) {
        observer.toolCallEnded(tool, { kind: 'refused', consent: outcome.consent }, mcp.arguments);
        return toolErrorToModel(call.callId, DENIED_MESSAGE);
      }
      const { result } = outcome;
      observer.toolCallEnded(tool, { kind: 'result', result }, mcp.arguments);
      return await toolResultToModel(call.callId, result, options.conversion(tool.serverId));
    } catch (e) {
      const message = (e as Error)?.message ?? String(e);
      const by = cancelledByOf(e);
      // Said in the response before the turn ends (a Stop ends it; a server's restart only this call).
      if (by) observer.toolCallEnded(tool, { kind: 'cancelled', by, message }, mcp.arguments);
      if (signal.aborted) throw e;
      if (by) return toolErrorToModel(call.callId, message);
      observer.toolCallEnded(tool, { kind: 'failed', message }, mcp.arguments);
      return toolErrorToModel(call.callId, `The tool call failed: ${message}`);
    }
  }
}

function inputObject(input: unknown): Record<string, unknown> {
  if (input && typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  if (typeof input === 'string') {
    try {
      const parsed = JSON.parse(input);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch {
      // Recorded as given: the call itself reports the bad input to the model.
    }
  }
  return {};
}
