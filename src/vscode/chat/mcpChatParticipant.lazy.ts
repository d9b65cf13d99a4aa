// The @mcp chat participant's answers: prompts as slash commands, the servers' tools for the chat's model, and lists of
// what each server offers with links to use it. Loaded on demand, at the first request (./registerChatParticipant
// registers the participant).
import { offersFeatures } from '../../core/host/serverInfo';
import vscode = require('vscode');
import type { PromptArgument } from '@modelcontextprotocol/client';
import { runToolLoop, type EditorTools } from '../../core/features/chat/chatToolLoop.lazy';
import {
  contextBlock,
  modelMessagesToText,
  promptToModelMessages,
  type ConversionOptions,
} from '../../core/features/chat/contentConversion.lazy';
import { commandLink, promptsListing, resourcesListing, toolsListing } from '../../core/features/chat/chatListings';
import { promptToMarkdown } from '../../core/features/chat/contentMarkdown.lazy';
import type { LanguageModel, ModelContentPart, ModelMessage } from '../../core/features/languageModel';
import { assignArguments, parsePromptInvocation } from '../../core/features/prompts/promptArguments';
import { findPrompt, listPrompts, type PromptEntry } from '../../core/features/prompts/promptCatalog';
import { getPrompt } from '../../core/features/prompts/promptRequests.lazy';
import { toolNameMap, toolNameMapOfServers } from '../../core/features/tools/toolNames';
import { mentionedServers } from '../../core/features/tools/toolSearch';
import { budgetNote } from '../../core/features/tools/contextBudget';
import { budgetForRequest } from '../tools/offerSizes.lazy';
import { skillAwareCaller, withSkillTools } from '../../core/features/skills/skillTool.lazy';
import { LanguageModels } from './languageModels.lazy';
import { escapeMarkdown, inlineCode, markdownLine, truncate } from '../../core/presentation/serverText';
import { ChatToolRenderer } from './chatToolRenderer.lazy';
import { promptPicker } from '../prompts/promptArgumentPicker.lazy';
import type { AnswerChatRequest, ChatParticipantDeps } from './registerChatParticipant';
import { CommandIds } from '../../core/common/commandIds';
import { abortOnCancel } from '../cancellation';
import { walkthroughStepDone } from '../walkthrough/walkthroughProgress';

/** Kept in each result so later turns can tell the model what was really sent and answered. */
interface TurnMetadata {
  sent?: string;
  answer?: string;
}

const JUSTIFICATION = 'MCP Host answers your @mcp request with the model you selected, using your MCP servers.';
const models = new LanguageModels(JUSTIFICATION);
const USAGE = 'Usage: `@mcp /prompt server.prompt name=value name="a value"` — or `@mcp /prompt` alone to pick one.';
const HELP = `Ask anything and the model answers with your MCP servers' tools, or run a prompt. ${USAGE} \`/prompts\`, \`/tools\` and \`/resources\` list what your servers offer.`;

/** The commands listings link to, all our own. Only these run from the links; server text is escaped, so it cannot add any. */
const LINKED_COMMANDS = [CommandIds.openChat, CommandIds.callTool, CommandIds.listServers];

/**
 * Markdown whose command links work. Listings are one Markdown part with links rather than many buttons: chat folds
 * runs of buttons into a collapsed "steps" section, which would hide the list.
 */
function links(markdown: string, ...moreCommands: string[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown);
  md.isTrusted = { enabledCommands: [...LINKED_COMMANDS, ...moreCommands] };
  return md;
}

/** One @mcp request, from the user's words to the answer. */
export class McpChatRequest {
  private readonly abort = new AbortController();
  private readonly model: LanguageModel;

  constructor(
    private readonly deps: ChatParticipantDeps,
    private readonly request: vscode.ChatRequest,
    private readonly context: vscode.ChatContext,
    private readonly stream: vscode.ChatResponseStream,
    private readonly token: vscode.CancellationToken,
  ) {
    this.model = models.of(request.model);
  }

  async run(): Promise<vscode.ChatResult> {
    const sub = abortOnCancel(this.token, this.abort);
    try {
      switch (this.request.command) {
        case 'prompt':
          return await this.prompt();
        case 'prompts':
          return this.listPrompts();
        case 'tools':
          return this.listTools();
        case 'resources':
          return this.listResources();
        default:
          return await this.freeText();
      }
    } catch (e) {
      if (this.token.isCancellationRequested) return {};
      // Chat renders the message as Markdown, and a server's error text can be in it.
      if (e instanceof vscode.LanguageModelError) return { errorDetails: { message: `The language model refused the request: ${escapeMarkdown(e.message)}` } };
      return { errorDetails: { message: escapeMarkdown((e as Error)?.message ?? String(e)) } };
    } finally {
      sub.dispose();
    }
  }

  private get servers() {
    return this.deps.sessions.servers();
  }

  private get origin(): string {
    return `your chat request "${truncate(this.request.prompt.trim() || `/${this.request.command ?? ''}`, 60)}"`;
  }

  private conversion(serverId: string): ConversionOptions {
    return {
      images: this.model.info.capabilities.acceptsImages,
      resolveLink: (link) => this.deps.resources.read(serverId, link.uri),
    };
  }

  /** `/prompt [server.prompt args…]`: collect what is missing, expand, show what was sent, and answer it. */
  private async prompt(): Promise<vscode.ChatResult> {
    const text = this.request.prompt.trim();
    let entry: PromptEntry | undefined;
    let values: Record<string, string> = {};
    let ask: PromptArgument[];
    if (!text) {
      entry = await promptPicker(this.deps.sessions).pickPrompt();
      if (!entry) return this.say('No prompt chosen.');
      ask = [...(entry.prompt.arguments ?? []).filter((a) => a.required), ...(entry.prompt.arguments ?? []).filter((a) => !a.required)];
    } else {
      const parsed = parsePromptInvocation(text);
      if (!parsed.ok) return this.say(`${escapeMarkdown(parsed.error)}\n\n${USAGE}`);
      const found = findPrompt(parsed.invocation.target, this.servers);
      if (!found.ok) return this.say(`${found.message}\n\n${USAGE}`, this.servers.some((s) => offersFeatures(s.state)));
      entry = found.entry;
      const assigned = assignArguments(entry.prompt, parsed.invocation);
      const declared = (entry.prompt.arguments ?? []).map((a) => inlineCode(a.name)).join(', ') || 'none';
      if (assigned.unknown.length) {
        this.stream.markdown(`Ignored ${assigned.unknown.map(inlineCode).join(', ')}: not an argument of this prompt (its arguments: ${declared}).\n\n`);
      }
      if (assigned.extra.length) this.stream.markdown(`Ignored ${assigned.extra.length} extra value(s): every argument already had one.\n\n`);
      values = assigned.values;
      ask = assigned.missing;
    }
    if (ask.length) {
      const collected = await promptPicker(this.deps.sessions).collect({ entry, values, ask, signal: this.abort.signal });
      if (!collected) return this.say('Cancelled: the prompt needs its arguments.');
      values = collected;
    }
    // Progress messages are Markdown too.
    this.stream.progress(`Expanding ${markdownLine(`${entry.serverName}.${entry.prompt.name}`)}…`);
    const result = await getPrompt(this.deps.sessions, entry.serverId, entry.prompt.name, values, this.abort.signal);
    walkthroughStepDone('runPrompt');
    const name = `${entry.serverName}.${entry.prompt.name}`;
    const expanded = promptToMarkdown(result, { linkTarget: (l) => this.deps.resources.documentUri(entry.serverId, l).toString() });
    const document = this.deps.documents.add(name, `# ${markdownLine(name)}\n\n${expanded}\n`);
    // Collapsed in the response's references: what was sent, one click away.
    this.stream.reference(document);
    const count = result.messages.length;
    this.stream.markdown(`Sent the prompt **${markdownLine(name)}**, as the server filled it in (${count} message${count === 1 ? '' : 's'}), to the model: `);
    this.stream.anchor(document, 'show');
    this.stream.markdown('\n\n');
    const messages = await promptToModelMessages(result, this.conversion(entry.serverId));
    const answer = await this.answer(messages);
    return { metadata: { sent: modelMessagesToText(messages), answer } satisfies TurnMetadata };
  }

  /** Free text: the model answers with every running server's tools, attached resources and earlier turns. */
  private async freeText(): Promise<vscode.ChatResult> {
    const context: ModelContentPart[] = [];
    const attachments = this.deps.resources.takeAttachments();
    for (const a of attachments) {
      this.stream.progress(`Attached ${markdownLine(a.label)} (${markdownLine(a.serverName)})`);
      context.push(...a.contents.map((c) => contextBlock(c, this.model.info.capabilities.acceptsImages)));
    }
    context.push(...(await this.references()));
    if (!this.request.prompt.trim() && !context.length) return this.say(HELP);
    const messages = this.history();
    const parts: ModelContentPart[] = [...context, { kind: 'text', text: this.request.prompt }];
    const last = messages.at(-1);
    if (last?.role === 'user') last.parts.push(...parts);
    else messages.push({ role: 'user', parts });
    const answer = await this.answer(messages);
    return { metadata: { answer } satisfies TurnMetadata };
  }

  private async answer(messages: ModelMessage[]): Promise<string> {
    const renderer = new ChatToolRenderer(this.stream, (serverId, link) => this.deps.resources.documentUri(serverId, link), this.deps.documents, this.deps.views);
    const settings = this.deps.settings();
    const tools = this.model.info.capabilities.acceptsTools ? toolNameMapOfServers(withSkillTools(this.servers)) : toolNameMap([]);
    // Past the tools one request carries, every tool is searched anyway (see ToolOffer).
    const named = mentionedServers(this.request.prompt, this.runningServers().map((s) => s.name));
    const { budget, moved: over } =
      tools.tools.length > settings.maxToolsPerRequest ? { budget: 0, moved: [] } : await budgetForRequest(tools.tools, this.servers, this.request.model, this.abort.signal);
    // A server the user named is offered in full all the same (see ToolOffer).
    const moved = over.filter((o) => !named.includes(o.serverName));
    // Said first, so the user knows why the model searches for some tools.
    if (moved.length) this.stream.markdown(`${escapeMarkdown(budgetNote(moved, budget))}\n\n`);
    await runToolLoop({
      model: this.model,
      messages,
      tools,
      maxRounds: settings.maxToolRounds,
      caller: skillAwareCaller(this.deps.caller, this.deps.sessions),
      conversion: (serverId) => this.conversion(serverId),
      origin: this.origin,
      signal: this.abort.signal,
      observer: renderer,
      editorTools: this.referencedTools(),
      maxTools: settings.maxToolsPerRequest,
      mentionedServers: named,
      searchedServers: new Set(moved.map((o) => o.serverId)),
      descriptionCap: settings.descriptionCap,
    });
    return renderer.answer;
  }

  /**
   * The model gets only the MCP servers' tools, unless the user asks for more: tools referenced with `#` in the
   * request are offered too, and run by VS Code (with its own confirmation, in this chat).
   */
  private referencedTools(): EditorTools | undefined {
    const tools = this.request.toolReferences
      .map((r) => vscode.lm.tools.find((t) => t.name === r.name))
      .filter((t): t is vscode.LanguageModelToolInformation => !!t)
      .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema ?? { type: 'object' } }));
    if (!tools.length || !this.model.info.capabilities.acceptsTools) return undefined;
    return {
      tools,
      call: async (name, input, signal) => {
        const source = new vscode.CancellationTokenSource();
        const cancel = () => source.cancel();
        signal.addEventListener('abort', cancel, { once: true });
        try {
          const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: this.request.toolInvocationToken }, source.token);
          return result.content.map((p) => ({ kind: 'text' as const, text: p instanceof vscode.LanguageModelTextPart ? p.value : '[A part the model cannot read here was left out.]' }));
        } finally {
          signal.removeEventListener('abort', cancel);
          source.dispose();
        }
      },
    };
  }

  /** Earlier @mcp turns of this chat, as the model saw and said them (turns of one role merged: they must alternate). */
  private history(): ModelMessage[] {
    const out: ModelMessage[] = [];
    const add = (role: ModelMessage['role'], text: string) => {
      const last = out.at(-1);
      if (last?.role === role) last.parts.push({ kind: 'text', text });
      else out.push({ role, parts: [{ kind: 'text', text }] });
    };
    const turns = this.context.history;
    turns.forEach((turn, i) => {
      if (turn instanceof vscode.ChatRequestTurn) {
        const next = turns[i + 1];
        const sent = next instanceof vscode.ChatResponseTurn ? (next.result.metadata as TurnMetadata | undefined)?.sent : undefined;
        add('user', sent ?? turn.prompt);
      } else if (turn instanceof vscode.ChatResponseTurn) {
        const metadata = turn.result.metadata as TurnMetadata | undefined;
        const text =
          metadata?.answer ??
          turn.response
            .filter((p): p is vscode.ChatResponseMarkdownPart => p instanceof vscode.ChatResponseMarkdownPart)
            .map((p) => p.value.value)
            .join('');
        if (text) add('assistant', text);
      }
    });
    return out;
  }

  /** Files and selections the user attached with `#`: their text as context. */
  private async references(): Promise<ModelContentPart[]> {
    const parts: ModelContentPart[] = [];
    for (const ref of this.request.references) {
      const value = ref.value;
      if (typeof value === 'string') {
        parts.push({ kind: 'text', text: value });
      } else if (value instanceof vscode.Uri || value instanceof vscode.Location) {
        const uri = value instanceof vscode.Uri ? value : value.uri;
        try {
          const doc = await vscode.workspace.openTextDocument(uri);
          const text = value instanceof vscode.Location ? doc.getText(value.range) : doc.getText();
          parts.push({ kind: 'text', text: `<file path="${vscode.workspace.asRelativePath(uri)}">\n${text}\n</file>` });
        } catch {
          parts.push({ kind: 'text', text: `[Attached ${uri.toString()} could not be read.]` });
        }
      }
    }
    return parts;
  }

  /** A message (it may quote names servers chose, so it gets no command links) and optionally a link to /prompts. */
  private say(markdown: string, offerList = false): vscode.ChatResult {
    this.stream.markdown(markdown);
    if (offerList) this.stream.markdown(links(`\n\n${commandLink('List prompts', CommandIds.openChat, { query: '@mcp /prompts' })}`));
    return {};
  }

  private runningServers() {
    return this.servers.filter((s) => offersFeatures(s.state));
  }

  private nothingRunning(): vscode.ChatResult {
    this.stream.markdown(
      links(`No MCP server is running. Configure servers in \`.vscode/mcp.json\` and start them: ${commandLink('List servers', CommandIds.listServers)}.`),
    );
    return {};
  }

  /** `/prompts`: every prompt, each with a link that runs it here. */
  private listPrompts(): vscode.ChatResult {
    if (!this.runningServers().length) return this.nothingRunning();
    const entries = listPrompts(this.servers);
    if (!entries.length) return this.say('No running server offers prompts.');
    this.stream.markdown(links(promptsListing(entries)));
    return {};
  }

  /** `/tools`: every tool, each with a link that calls it outside the model. */
  private listTools(): vscode.ChatResult {
    const running = this.runningServers();
    if (!running.length) return this.nothingRunning();
    this.stream.markdown(links(toolsListing(running)));
    return {};
  }

  /** `/resources`: every resource, each with a link that attaches it to the next request. */
  private listResources(): vscode.ChatResult {
    const running = this.runningServers();
    if (!running.length) return this.nothingRunning();
    const { attachCommand } = this.deps.resources;
    this.stream.markdown(links(resourcesListing(running, attachCommand), attachCommand));
    return {};
  }
}

/** Answers one @mcp request (see ./registerChatParticipant). */
export const answerChatRequest: AnswerChatRequest = (deps, request, context, stream, token) => new McpChatRequest(deps, request, context, stream, token).run();
