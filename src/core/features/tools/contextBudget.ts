// The context budget: what the MCP servers' tools add to a model request, and how much of it a request carries.
// Each offered tool definition (its model name, its description as cut, its input schema) costs tokens in every
// request. Long descriptions and instructions are cut at a cap (2 KB unless set) with a visible marker; each tool's
// size is counted once per tool object (a server's list is replaced, never changed in place) and the counts are
// summed per request, so a catalogue of thousands of tools costs a few map lookups. When the offer is over the budget,
// the largest servers' tools are offered through tool search (see ToolOffer) instead of by definition.
import type { Tool } from '../../host/serverInfo';
import type { NamedTool } from './toolNames';

/** Characters of a tool description or server instructions a model gets at most, unless set. */
export const DEFAULT_DESCRIPTION_CAP = 2048;
/** The share of the model's input limit the offered tool definitions may take, unless a budget is set. */
export const BUDGET_SHARE = 0.25;
/** The input limit assumed when no model says its own (the agent tools are called without one). */
export const FALLBACK_INPUT_TOKENS = 128_000;

const count = (n: number): string => n.toLocaleString('en-US');

/** The text, or its first `cap` characters and a marker saying how many were cut. */
export function capText(text: string, cap: number = DEFAULT_DESCRIPTION_CAP): string {
  if (text.length <= cap) return text;
  // Never split a surrogate pair.
  const end = cap > 0 && isHighSurrogate(text.charCodeAt(cap - 1)) ? cap - 1 : cap;
  return `${text.slice(0, end)}… [cut: ${count(text.length - end)} characters]`;
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** A plain estimate of a text's tokens, for when no model counts them: about four characters a token. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** The description a model gets for a tool: its own (or its title, or a plain one), cut at the cap. */
export const modelDescription = (t: NamedTool, cap: number): string =>
  capText(t.tool.description ?? t.tool.title ?? `Tool "${t.tool.name}" of MCP server "${t.serverName}"`, cap);

/** A tool definition as a model request carries it, as text: what its size is counted on. */
export const definitionText = (t: NamedTool, cap: number): string =>
  JSON.stringify({ name: t.modelName, description: modelDescription(t, cap), inputSchema: t.tool.inputSchema });

export interface TokenSize {
  tokens: number;
  /** Not counted by a model: estimated from the characters ("≈"). */
  estimated: boolean;
}

/** Counts a text's tokens: the model's own `countTokens`. */
export interface TokenCounter {
  /** The model's id: counts are kept per model. */
  id: string;
  countTokens(text: string): Promise<number>;
}

interface Sized {
  name: string;
  cap: number;
  text: string;
  estimate: number;
  /** Counts by model id. */
  counted?: Map<string, number>;
}

/**
 * The sizes of tool definitions, kept per tool object: a server's new list has new objects and is sized anew, an
 * unchanged one never is. Counts by a model are added when `count` ran for it; until then the estimate stands.
 */
export class DefinitionSizes {
  private readonly sized = new WeakMap<Tool, Sized>();

  private entry(t: NamedTool, cap: number): Sized {
    let s = this.sized.get(t.tool);
    if (!s || s.name !== t.modelName || s.cap !== cap) {
      const text = definitionText(t, cap);
      s = { name: t.modelName, cap, text, estimate: estimateTokens(text) };
      this.sized.set(t.tool, s);
    }
    return s;
  }

  /** The tool's size: counted by `model` when it was, else estimated. */
  sizeOf(t: NamedTool, cap: number, model?: string): TokenSize {
    const s = this.entry(t, cap);
    const counted = model === undefined ? undefined : s.counted?.get(model);
    return counted === undefined ? { tokens: s.estimate, estimated: true } : { tokens: counted, estimated: false };
  }

  /** Whether every one of the tools has a count by `model`. */
  allCounted(tools: readonly NamedTool[], cap: number, model: string): boolean {
    return tools.every((t) => this.entry(t, cap).counted?.has(model));
  }

  /** Counts the tools the model has not counted yet (a few at a time); a count that fails keeps the estimate. */
  async count(tools: readonly NamedTool[], cap: number, model: TokenCounter, signal?: AbortSignal): Promise<void> {
    const missing = tools.map((t) => this.entry(t, cap)).filter((s) => !s.counted?.has(model.id));
    const AT_ONCE = 32;
    for (let i = 0; i < missing.length && !signal?.aborted; i += AT_ONCE) {
      await Promise.all(
        missing.slice(i, i + AT_ONCE).map(async (s) => {
          const tokens = await model.countTokens(s.text).catch(() => undefined);
          if (typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0) (s.counted ??= new Map()).set(model.id, tokens);
        }),
      );
    }
  }
}

/** What one server's tools add to a request. */
export interface ServerOffer extends TokenSize {
  serverId: string;
  serverName: string;
  tools: number;
  /** Marked `alwaysOffered` (or `alwaysLoad`): never moved behind the search. */
  alwaysOffered: boolean;
}

/** Each server's offer, in the order its tools come; estimated when any of its tools was not counted. */
export function serverOffers(tools: readonly NamedTool[], sizeOf: (t: NamedTool) => TokenSize, alwaysOffered: (serverId: string) => boolean): ServerOffer[] {
  const byServer = new Map<string, ServerOffer>();
  for (const t of tools) {
    let offer = byServer.get(t.serverId);
    if (!offer) byServer.set(t.serverId, (offer = { serverId: t.serverId, serverName: t.serverName, tokens: 0, estimated: false, tools: 0, alwaysOffered: alwaysOffered(t.serverId) }));
    const size = sizeOf(t);
    offer.tokens += size.tokens;
    offer.estimated ||= size.estimated;
    offer.tools++;
  }
  return [...byServer.values()];
}

/**
 * The servers whose tools go behind the search so that the rest fits the budget: the largest first, until the total
 * is within it. Always-offered servers stay, even when they alone are over it. `searchTool`: the tokens of the search
 * tool's own definition, which the request carries once any server is moved (so it counts from then on).
 */
export function serversOverBudget(offers: readonly ServerOffer[], budget: number, searchTool = 0): ServerOffer[] {
  let total = offers.reduce((n, o) => n + o.tokens, 0);
  const moved: ServerOffer[] = [];
  const movable = offers.filter((o) => !o.alwaysOffered).sort((a, b) => b.tokens - a.tokens);
  for (const o of movable) {
    if (total <= budget) break;
    if (!moved.length) total += searchTool;
    moved.push(o);
    total -= o.tokens;
  }
  return moved;
}

/** The budget in tokens: the one set, else a share of the model's input limit. */
export const contextBudget = (setting: number, maxInputTokens: number | undefined): number =>
  setting > 0 ? setting : Math.floor(BUDGET_SHARE * (maxInputTokens && maxInputTokens > 0 ? maxInputTokens : FALLBACK_INPUT_TOKENS));

/** "≈3.2k tokens", "812 tokens": a size as a row shows it; "≈" when estimated. */
export function tokensText(size: TokenSize): string {
  const n = size.tokens;
  const figure = n < 1000 ? String(n) : n < 100_000 ? `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k` : `${Math.round(n / 1000)}k`;
  return `${size.estimated ? '≈' : ''}${figure} tokens`;
}

/** What the response says when servers were moved behind the search (server names as given: escape them to show). */
export function budgetNote(moved: readonly Pick<ServerOffer, 'serverName' | 'tokens' | 'estimated'>[], budget: number): string {
  const names = moved.map((o) => `${o.serverName} (${tokensText(o)})`).join(', ');
  const whose = moved.length === 1 ? "1 server's tools are" : `${moved.length} servers' tools are`;
  return `${whose} offered through search to stay within the context budget (${count(budget)} tokens): ${names}.`;
}
