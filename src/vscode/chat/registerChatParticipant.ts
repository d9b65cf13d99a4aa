// The @mcp chat participant, registered on activation; what answers a request (./mcpChatParticipant.lazy.ts) loads at
// the first request.
import vscode = require('vscode');
import type { ResourceLink } from '@modelcontextprotocol/client';
import { linkedChatQuery } from '../../core/features/chat/chatListings';
import type { ResourceContents } from '../../core/features/resources/resourceContents';
import type { ToolCaller } from '../../core/features/tools/toolCaller';
import type { ToolConsent } from '../../core/features/tools/toolConsent';
import type { SessionPort } from '../../core/host/serverSession';
import { CommandIds } from '../../core/common/commandIds';
import type { AppViews } from '../apps/appViews';
import type { ToolSettings } from '../tools/toolSettings';
import type { ChatDocuments } from './chatDocuments';
import type { ChatTranscripts } from './chatTranscripts';

const PARTICIPANT_ID = 'mcpHost.mcp';

/** What chat needs from the resources feature. */
export interface ChatResources {
  /** Reads a resource of a server through the resources provider. */
  read(serverId: string, uri: string): Promise<ResourceContents[]>;
  /** The document that shows a resource (served by the resources feature). */
  documentUri(serverId: string, link: Pick<ResourceLink, 'uri' | 'name' | 'mimeType'>): vscode.Uri;
  /** Resources the user attached for the next request (taken: later requests do not get them). */
  takeAttachments(): { serverName: string; label: string; uri: string; contents: ResourceContents[] }[];
  /** The command that attaches a resource to chat, taking `(serverId, uri)`. */
  readonly attachCommand: string;
}

export interface ChatParticipantDeps {
  sessions: SessionPort;
  consent: ToolConsent;
  caller: ToolCaller;
  settings: () => ToolSettings;
  resources: ChatResources;
  /** Where expanded prompts and tool calls are kept for the response's references. */
  documents: ChatDocuments;
  /** Views of tool results (MCP Apps). */
  views?: Pick<AppViews, 'remember'>;
  iconPath: vscode.Uri;
  /** Set in extension tests: records every response. */
  transcripts?: ChatTranscripts;
}

/** Answers one @mcp request. */
export type AnswerChatRequest = (
  deps: ChatParticipantDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
) => Promise<vscode.ChatResult>;

export function registerChatParticipant(deps: ChatParticipantDeps, answer: AnswerChatRequest): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => {
    const recorded = deps.transcripts?.record(request, stream);
    return answer(deps, request, context, recorded?.stream ?? stream, token).then((result) => {
      if (recorded) {
        recorded.transcript.done = true;
        recorded.transcript.errorMessage = result.errorDetails?.message;
      }
      return result;
    });
  });
  participant.iconPath = deps.iconPath;
  const openChat = vscode.commands.registerCommand(CommandIds.openChat, (arg: unknown) => {
    const query = linkedChatQuery(arg);
    // Participants answer in Ask mode only.
    return query === undefined ? undefined : vscode.commands.executeCommand('workbench.action.chat.open', { query, mode: 'ask' });
  });
  return vscode.Disposable.from(participant, openChat);
}
