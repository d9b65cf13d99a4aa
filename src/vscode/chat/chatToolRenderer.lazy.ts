// How the tool loop shows up in a chat response: the model's words as they stream, progress while tools run, each
// tool's result (in full behind a reference, inline when short), and what was left out or refused. Chat renders no
// HTML such as <details>, so "collapsed" means the response's reference list.
import vscode = require('vscode');
import type { Progress, ResourceLink } from '@modelcontextprotocol/client';
import type { ToolCallEnd, ToolLoopObserver } from '../../core/features/chat/chatToolLoop.lazy';
import { contentToMarkdown, toolResultToMarkdown } from '../../core/features/chat/contentMarkdown.lazy';
import type { NamedTool } from '../../core/features/tools/toolNames';
import { ranWithoutAsking, type AllowedReason } from '../../core/features/tools/toolConsent';
import { fenced, markdownLine, plainText, withoutThemeIcons } from '../../core/presentation/serverText';
import { toolLabel as displayName } from '../../core/presentation/serverPresentation';
import { progressText } from '../../core/presentation/toolCallText';
import type { AppViews } from '../apps/appViews';
import { hasView } from '../../core/features/tools/toolUi';
import { movedToBackground } from '../../core/features/tools/backgroundCalls';
import type { ChatDocuments } from './chatDocuments';
import { CommandIds } from '../../core/common/commandIds';

/** Progress lines at most this often per tool: a chatty server must not flood the response. */
const PROGRESS_INTERVAL_MS = 1000;
/** Results longer than this (as Markdown) are only in their reference document. */
const INLINE_RESULT_LIMIT = 4000;

/** A one-line notice with a codicon; server text in it is escaped, so it can show no icon of its own. */
const notice = (icon: string, text: string): vscode.MarkdownString =>
  new vscode.MarkdownString(`\n\n$(${icon}) ${withoutThemeIcons(text)}\n\n`, true);

const toolLabel = (t: NamedTool): string => `${displayName(t.tool)} (${t.serverName})`;

/** The label as Markdown on one line, for progress messages: its parts escaped, the parentheses left as they read. */
const progressLabel = (t: NamedTool): string => `${markdownLine(displayName(t.tool))} (${markdownLine(t.serverName)})`;

export class ChatToolRenderer implements ToolLoopObserver {
  /** The model's own words, for the chat history of later turns. */
  answer = '';
  private readonly lastProgress = new Map<string, number>();

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    /** The document a resource link opens as (served by the resources feature). */
    private readonly linkDocument: (serverId: string, link: ResourceLink) => vscode.Uri,
    private readonly documents: ChatDocuments,
    /** Views of tool results (MCP Apps): a result whose tool has one gets a button that opens it. */
    private readonly views?: Pick<AppViews, 'remember'>,
  ) {}

  text(text: string): void {
    this.answer += text;
    this.stream.markdown(text);
  }

  toolNotOffered(tool: NamedTool, reason: string): void {
    this.stream.markdown(notice('warning', `Tool **${markdownLine(toolLabel(tool))}** was not offered to the model: ${markdownLine(reason)}`));
  }

  toolCallStarted(tool: NamedTool, _args: Record<string, unknown>, allowedBy?: AllowedReason): void {
    // The server's annotation (or the user's "never ask") let it run unasked: said where the call shows.
    const unasked = allowedBy && ranWithoutAsking(tool.serverName, allowedBy);
    if (unasked) this.stream.markdown(notice('unlock', `${markdownLine(toolLabel(tool))} ${markdownLine(unasked)}.`));
    this.stream.progress(`Running ${progressLabel(tool)}…`);
  }

  toolProgress(tool: NamedTool, progress: Progress): void {
    const now = Date.now();
    if (now - (this.lastProgress.get(tool.modelName) ?? 0) < PROGRESS_INTERVAL_MS) return;
    this.lastProgress.set(tool.modelName, now);
    const text = progressText(progress);
    this.stream.progress(`${progressLabel(tool)}${text ? `: ${markdownLine(text)}` : '…'}`);
  }

  toolCallEnded(tool: NamedTool, end: ToolCallEnd, args: Record<string, unknown>): void {
    this.lastProgress.delete(tool.modelName);
    const label = toolLabel(tool);
    const input = `Input:\n\n${fenced(JSON.stringify(args, null, 2), 'json')}`;
    const linkTarget = (l: ResourceLink) => this.linkDocument(tool.serverId, l).toString();
    switch (end.kind) {
      case 'refused':
        this.stream.markdown(
          notice('circle-slash', `${markdownLine(label)}: ${end.consent.reason === 'remembered' ? 'denied by a saved decision' : 'denied'}; the model was told.`),
        );
        return;
      case 'cancelled':
        this.stream.markdown(notice('circle-slash', markdownLine(end.message)));
        return;
      case 'failed':
        this.stream.reference(this.documents.add(`${tool.serverName}.${tool.tool.name} failed`, `# ${markdownLine(label)}\n\n${input}\n\nFailed:\n\n${fenced(end.message)}\n`));
        this.stream.markdown(notice('error', `${markdownLine(label)} failed: ${markdownLine(end.message)}`));
        return;
      case 'result': {
        const full = toolResultToMarkdown(end.result, { linkTarget });
        const document = this.documents.add(`${tool.serverName}.${tool.tool.name}`, `# ${markdownLine(label)}\n\n${input}\n\nResult:\n\n${full}\n`);
        this.stream.reference(document);
        this.stream.markdown(notice(end.result.isError ? 'error' : 'tools', `**${markdownLine(label)}**${end.result.isError ? ' reported an error' : ''}:`));
        // Resource links show as chips that open them; images count for nothing against the length limit.
        const blocks = end.result.content ?? [];
        const inline = toolResultToMarkdown({ ...end.result, content: blocks.filter((b) => b.type !== 'resource_link') });
        const textLength = inline.replace(/\(data:[^)]*\)/g, '').length;
        if (textLength <= INLINE_RESULT_LIMIT) {
          this.stream.markdown(`${inline}\n\n`);
        } else {
          const images = contentToMarkdown(blocks.filter((b) => b.type === 'image'));
          this.stream.markdown(`*The result is long (${textLength} characters): open it from the references.*\n\n${images ? `${images}\n\n` : ''}`);
        }
        const linked = blocks.filter((b) => b.type === 'resource_link');
        for (const link of linked) this.stream.anchor(this.linkDocument(tool.serverId, link), plainText(link.title ?? link.name));
        if (linked.length) this.stream.markdown('\n\n');
        // A call gone on in the background has no result yet to view.
        if (this.views && hasView(tool.tool) && !movedToBackground(end.result)) {
          const id = this.views.remember({ serverId: tool.serverId, serverName: tool.serverName, tool: tool.tool, arguments: args, result: end.result });
          this.stream.button({ command: CommandIds.openToolView, title: `Open View of ${plainText(displayName(tool.tool))}`, arguments: [id] });
        }
      }
    }
  }

  toolsSearched(query: string, found: readonly NamedTool[], total: number): void {
    const names = found.length ? found.map((t) => markdownLine(toolLabel(t))).join(', ') : 'nothing';
    this.stream.markdown(notice('search', `Searched the ${total} tools (more than one request carries) for "${markdownLine(query)}": ${names}`));
  }

  roundLimitReached(limit: number): void {
    this.stream.markdown(
      notice('warning', `Stopped after ${limit} rounds of tool calls; the model's last calls were not run. Raise \`mcpHost.chat.maxToolRounds\` to allow more.`),
    );
  }
}
