// The context budget in VS Code (see core/features/tools/contextBudget): what each server's tools add to a model
// request, on its row of the Servers view and in its tools' tooltips, counted with the picked model's own
// `countTokens` (the model of the last @mcp request, else the first chat model VS Code offers) and estimated until
// then; and which servers a request moves behind the tool search to stay within the budget. Sizes are kept per tool
// object, so a redraw or a request sums known sizes and counts only tools it has not seen.
import vscode = require('vscode');
import {
  contextBudget,
  DefinitionSizes,
  estimateTokens,
  serverOffers,
  serversOverBudget,
  tokensText,
  type ServerOffer,
  type TokenSize,
} from '../../core/features/tools/contextBudget';
import { toolNameMapOfServers, type NamedTool } from '../../core/features/tools/toolNames';
import { SEARCH_TOOL_NAME, searchToolDefinition } from '../../core/features/tools/toolOffer';
import type { ListBudget } from '../../core/features/tools/toolListSearch';
import { withSkillTools } from '../../core/features/skills/skillTool.lazy';
import type { ServerInfo, Tool } from '../../core/host/serverInfo';
import { NUMERIC_SETTINGS, numericSetting } from '../../core/config/numericSettings';

/**
 * The two settings (a value out of range counts as the default; ../settings warns of it elsewhere), read once until
 * one of them changes: every server's row asks at each redraw, and the first read after any change of the configuration
 * (an edit of mcp.json is one) makes the extension host merge it anew, several milliseconds for 50 rows. A request
 * reads them `fresh` (a setting just updated may be told to this host after the update resolved).
 */
let toolSettings: { descriptionCap: number; contextBudget: number } | undefined;
let watchingSettings: vscode.Disposable | undefined;
function readToolSettings(fresh = false): { descriptionCap: number; contextBudget: number } {
  watchingSettings ??= vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(NUMERIC_SETTINGS.descriptionCap.key) || e.affectsConfiguration(NUMERIC_SETTINGS.contextBudget.key)) toolSettings = undefined;
  });
  if (toolSettings && !fresh) return toolSettings;
  const c = vscode.workspace.getConfiguration();
  return (toolSettings = {
    descriptionCap: numericSetting(c.get(NUMERIC_SETTINGS.descriptionCap.key), NUMERIC_SETTINGS.descriptionCap),
    contextBudget: numericSetting(c.get(NUMERIC_SETTINGS.contextBudget.key), NUMERIC_SETTINGS.contextBudget),
  });
}

const sizes = new DefinitionSizes();
/** The model sizes are counted with. */
let picked: vscode.LanguageModelChat | undefined;
/** A look for a model under way (or done without finding one, until the models change). */
let looking: Promise<void> | undefined;
let watching: vscode.Disposable | undefined;
/** Redraws each server's row (as the view gave them): a newly picked model's counts replace the figures. */
const redraws = new Map<string, () => void>();
const redrawRows = () => {
  for (const redraw of redraws.values()) redraw();
};

/** The model an @mcp request picked: sizes are counted with it from now on. */
export function pickModel(model: vscode.LanguageModelChat): void {
  picked = model;
}

/** The model to count with, if one is known; else a look for one starts, and `found` is called when it ends. */
function countingModel(found: () => void): vscode.LanguageModelChat | undefined {
  if (picked || looking) return picked;
  watching ??= vscode.lm.onDidChangeChatModels(() => {
    if (!picked) looking = undefined;
  });
  looking = Promise.resolve(vscode.lm.selectChatModels()).then(
    (models) => {
      if (!picked && models[0]) {
        picked = models[0];
        found();
      }
    },
    () => undefined,
  );
  return picked;
}

/** The server's tools as a request offers them (switched-off ones left out, its skill tool added). */
const offeredTools = (info: ServerInfo): NamedTool[] => toolNameMapOfServers(withSkillTools([info])).tools;

/** Counts the sizes not counted yet, then `counted` (once, only when some were missing). */
function countLater(tools: readonly NamedTool[], cap: number, model: vscode.LanguageModelChat, counted: () => void): void {
  if (sizes.allCounted(tools, cap, model.id)) return;
  const key = `${model.id}\u0000${cap}`;
  const list = tools.length ? tools[0].tool : undefined;
  if (list && pending.get(list) === key) return;
  if (list) pending.set(list, key);
  void sizes.count(tools, cap, counter(model)).then(counted, () => undefined).finally(() => list && pending.delete(list));
}
/** Counts under way, by the first tool of the list counted. */
const pending = new WeakMap<Tool, string>();

const counter = (model: vscode.LanguageModelChat) => ({ id: model.id, countTokens: (text: string) => Promise.resolve(model.countTokens(text)) });

/**
 * What the server adds to a request, for its row: "≈3.2k tokens" (estimated) or "3.2k tokens" (counted by the
 * model); a dormant server's from the tools known from its last run, never started for it (its row says dormant).
 * Counting runs in the background the first time; `redraw` shows its result.
 */
export function offerSizeText(info: ServerInfo, redraw: () => void): string | undefined {
  if (!hasSize(info)) return undefined;
  redraws.set(info.id, redraw);
  const cap = readToolSettings().descriptionCap;
  const model = countingModel(redrawRows);
  // A redraw of an unchanged server (same list, state, switches, entry, cap and model) reads the figure it had.
  const key = `${model?.id ?? ''}\u0000${cap}\u0000${info.state.kind}`;
  const last = shown.get(info.features.tools);
  const file = fileSwitches(info);
  if (last && last.key === key && last.choices === info.toolChoices && last.file === file && last.skills === info.features.skills) return last.text;
  const tools = offeredTools(info);
  if (model) countLater(tools, cap, model, redraw);
  const offer = serverOffers(tools, (t) => sizes.sizeOf(t, cap, model?.id), () => false)[0];
  const text = offer && tokensText(offer);
  // Kept once final: counted by the model, or estimated with none to count.
  if (!offer?.estimated || !model) shown.set(info.features.tools, { key, choices: info.toolChoices, file, skills: info.features.skills, text });
  return text;
}
/** Whether a server's row shows a size: running, or dormant with tools known from its last run. */
export const hasSize = (info: ServerInfo): boolean => info.state.kind === 'running' || (info.state.kind === 'dormant' && info.features.tools.length > 0);

/** The figure each server's row showed last, by its tool list. */
const shown = new WeakMap<readonly Tool[], { key: string; choices: ServerInfo['toolChoices']; file: string; skills: ServerInfo['features']['skills']; text: string | undefined }>();

/**
 * What of the server's entry the figure depends on: its name and the tools its file switches off. Not the entry
 * object: each edit of mcp.json makes a new one for every server, which made every row count its tools again.
 */
const fileSwitches = (info: ServerInfo): string => JSON.stringify([info.name, info.definition.tools, info.definition.disabledTools]);

/** One tool's size, for its tooltip; undefined when it is not offered (switched off, or only for its view). */
export function toolSizeText(info: ServerInfo, toolName: string): string | undefined {
  const tool = offeredTools(info).find((t) => t.tool.name === toolName);
  return tool && tokensText(sizes.sizeOf(tool, readToolSettings().descriptionCap, picked?.id));
}

/** What one @mcp request moves behind the search: the largest servers, while the offer is over the budget. */
export async function budgetForRequest(
  tools: readonly NamedTool[],
  servers: readonly ServerInfo[],
  model: vscode.LanguageModelChat,
  signal: AbortSignal,
): Promise<{ budget: number; moved: ServerOffer[] }> {
  const changed = picked?.id !== model.id;
  pickModel(model);
  const settings = readToolSettings(true);
  const cap = settings.descriptionCap;
  await sizes.count(tools, cap, counter(model), signal);
  if (changed) redrawRows();
  const always = new Set(servers.filter((s) => s.definition.alwaysOffered).map((s) => s.id));
  const budget = contextBudget(settings.contextBudget, model.maxInputTokens);
  const offers = serverOffers(tools, (t) => sizes.sizeOf(t, cap, model.id), (id) => always.has(id));
  // Over the budget, the request carries the search tool too: its own size counts.
  const over = offers.reduce((n, o) => n + o.tokens, 0) > budget;
  return { budget, moved: serversOverBudget(offers, budget, over ? await searchToolSize(tools, model) : 0) };
}

/** The search tool's definition as the model counts it (estimated when it cannot). */
async function searchToolSize(tools: readonly NamedTool[], model: vscode.LanguageModelChat): Promise<number> {
  const text = JSON.stringify(searchToolDefinition(SEARCH_TOOL_NAME, tools.length, [...new Set(tools.map((t) => t.serverName))]));
  const counted = await Promise.resolve(model.countTokens(text)).catch(() => undefined);
  return typeof counted === 'number' && Number.isFinite(counted) && counted >= 0 ? counted : estimateTokens(text);
}

/** The budget of the agent tools' list (they are called without a model: the picked one's limit, if known). */
export function listBudget(): ListBudget {
  const settings = readToolSettings(true);
  const cap = settings.descriptionCap;
  const model = picked;
  return { tokens: contextBudget(settings.contextBudget, model?.maxInputTokens), descriptionCap: cap, sizeOf: (t): TokenSize => sizes.sizeOf(t, cap, model?.id) };
}
