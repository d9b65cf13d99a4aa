// What `mcpHost_listTools` and `mcpHost_callTool` do (./registerAgentTools registers them with vscode.lm), loaded on
// demand: a call needs a running server. VS Code's agent mode and other extensions'
// participants (through vscode.lm.invokeTool) reach the tools of the running, trusted servers. Our consent applies as
// everywhere: a call the user always allowed (or a read-only tool, when the user relies on the hint) runs without
// asking, a saved "deny" is refused, and any other call gets VS Code's own confirmation, which names the real tool,
// its server and the arguments. A tool with a view (MCP Apps) opens it beside the chat when its result arrives, since
// an agent's result has no button to click, and the model is told so (unless the user turned that off with
// `mcpHost.apps.openForAgentCalls`).
import vscode = require('vscode');
import { toolResultToModel, type ConversionOptions } from '../../core/features/chat/contentConversion.lazy';
import { AgentCalls } from '../../core/features/tools/agentCallIdentity.lazy';
import { skillAwareCaller, withSkillTools } from '../../core/features/skills/skillTool.lazy';
import { toolListForModel, VIEW_OPENED_NOTE, type CallToolInput, type ListToolsInput } from '../../core/features/tools/agentTools';
import { searchedToolList } from '../../core/features/tools/toolListSearch';
import type { NamedTool } from '../../core/features/tools/toolNames';
import { ranWithoutAsking, type AllowedReason } from '../../core/features/tools/toolConsent';
import { escapeMarkdown, fenced, heading, markdownLine, plainText } from '../../core/presentation/serverText';
import { hasView } from '../../core/features/tools/toolUi';
import { movedToBackground } from '../../core/features/tools/backgroundCalls';
import type { AgentToolCallDeps, AgentTools, PreparedAgentCall } from './registerAgentTools';
import { toolLabel } from '../../core/presentation/serverPresentation';
import { abortOnCancel } from '../cancellation';
import { toolResultParts } from '../chat/languageModels.lazy';
import { listBudget } from './offerSizes.lazy';

const ORIGIN = 'an agent in chat';

/** Why a call runs without VS Code's confirmation, when it is on the server's word or the user's policy. */
const unasked = (serverName: string, reason: AllowedReason): string => {
  const words = ranWithoutAsking(serverName, reason);
  return words ? plainText(` (${words})`) : '';
};

/** VS Code's confirmation: the MCP tool's real name and server, what the server says about it, and the arguments. */
function confirmation(tool: NamedTool, args: Record<string, unknown>): { title: string; message: string } {
  const t = tool.tool;
  const a = t.annotations ?? {};
  const kind = a.readOnlyHint === true ? 'The server says it only reads.' : a.destructiveHint === false ? '' : 'The server does not say it is read-only: it may modify or delete data.';
  const label = toolLabel(t);
  return {
    title: plainText(`Run the MCP tool "${t.name}" of server "${tool.serverName}"?`),
    message: [
      `${heading(label, t.name)} · MCP server **${markdownLine(tool.serverName)}**`,
      t.description?.trim() ? escapeMarkdown(t.description.trim()) : '',
      kind,
      `Arguments:\n\n${fenced(JSON.stringify(args, null, 2), 'json')}`,
      'Asked by MCP Host: allowing runs this one call.',
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

/** The two tools' work, made when an agent first uses one of them. */
export function agentTools(deps: AgentToolCallDeps): AgentTools {
  // With skills, each server's `load_skill` tool too.
  const servers = () => {
    const all = deps.sessions.servers();
    return all.some((s) => s.features.skills?.length) ? withSkillTools(all) : all;
  };
  const calls = new AgentCalls(deps.consent, Date.now, deps.sessions);
  const conversion = (serverId: string): ConversionOptions => ({ images: false, resolveLink: (link) => deps.resources.read(serverId, link.uri) });

  const listTools: vscode.LanguageModelTool<ListToolsInput> = {
    prepareInvocation: () => ({ invocationMessage: 'Listing the tools of your MCP servers' }),
    invoke: (options) => {
      const input = options.input ?? {};
      const budget = listBudget();
      const text = searchedToolList(servers(), input, deps.settings().maxToolsPerRequest, budget) ?? toolListForModel(servers(), input, budget.descriptionCap);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    },
  };

  const callTool: vscode.LanguageModelTool<CallToolInput> = {
    prepareInvocation(options) {
      const input = options.input ?? {};
      // Resolved once: the confirmation and the invoke share this identity (server, tool as described, arguments).
      const resolved = calls.prepare(servers(), input);
      let prepared: PreparedAgentCall;
      if (!resolved.ok) {
        prepared = { input, invocationMessage: 'Calling an MCP tool that is not there' };
      } else {
        const { tool, decision } = resolved;
        const args = resolved.identity.arguments;
        const name = plainText(`${tool.tool.name} (${tool.serverName})`);
        prepared =
          decision === 'ask'
            ? { input, invocationMessage: `Calling ${name}`, confirmation: confirmation(tool, args) }
            : { input, invocationMessage: decision.allowed ? `Calling ${name}${unasked(tool.serverName, decision.reason)}` : `Not calling ${name}: you denied it` };
      }
      deps.record?.push(prepared);
      return {
        invocationMessage: prepared.invocationMessage,
        confirmationMessages: prepared.confirmation && { title: prepared.confirmation.title, message: new vscode.MarkdownString(prepared.confirmation.message) },
      };
    },
    async invoke(options, token) {
      const abort = new AbortController();
      const sub = abortOnCancel(token, abort);
      try {
        // The identity prepared (and confirmed, where VS Code asked), found again unchanged once its server runs
        // (a dormant one started ahead at prepare): never resolved anew.
        const resolved = await calls.takeOnceStarted(servers, options.input ?? {}, abort.signal);
        if (!resolved.ok) throw new Error(resolved.message);
        const { tool, arguments: args } = resolved;
        // The one guarded path: a decision taken at prepare time is checked again (a "deny" saved since refuses it).
        const outcome = await skillAwareCaller(deps.caller, deps.sessions).call({ serverId: tool.serverId, tool: tool.tool, arguments: args, origin: ORIGIN, signal: abort.signal, whenAborted: 'detach', mayBackground: true }, { confirmedByUser: resolved.confirmedByUser });
        if (!outcome.ran) throw new Error('The user denied this MCP tool. Do not retry it.');
        const { result } = outcome;
        const part = await toolResultToModel('agent', result, conversion(tool.serverId));
        const content = part.kind === 'toolResult' ? part.content : [];
        const text = content.map((c) => (c.kind === 'text' ? c.text : '')).join('\n');
        // The error's text goes to the model as the tool's failure.
        if (result.isError) throw new Error(text);
        const parts = toolResultParts(content);
        if (deps.views && hasView(tool.tool) && deps.settings().openViewsForAgentCalls && !movedToBackground(result)) {
          const name = plainText(tool.tool.name);
          deps.views
            .showLatest({ serverId: tool.serverId, serverName: tool.serverName, tool: tool.tool, arguments: args, result })
            .catch((e: unknown) => vscode.window.showErrorMessage(`The view of "${name}" could not open: ${plainText(String((e as Error)?.message ?? e))}`));
          parts.push(new vscode.LanguageModelTextPart(VIEW_OPENED_NOTE));
        }
        return new vscode.LanguageModelToolResult(parts);
      } catch (e) {
        if (abort.signal.aborted) throw new vscode.CancellationError();
        throw e instanceof Error ? e : new Error(String(e));
      } finally {
        sub.dispose();
      }
    },
  };

  return { listTools, callTool };
}
