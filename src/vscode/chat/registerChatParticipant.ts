// The @mcp chat participant, registered on activation; what answers a request (./mcpChatParticipant) loads with the
// host bundle on the first request.
import * as vscode from 'vscode';
import { CHAT_OPEN_COMMAND, linkedChatQuery } from '../../core/features/chat/chatListings';
import { loadHostBundle } from '../loadHostBundle';
import type { ChatParticipantDeps } from './mcpChatParticipant';

const PARTICIPANT_ID = 'mcpHost.mcp';

export function registerChatParticipant(deps: ChatParticipantDeps): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => {
    const recorded = deps.transcripts?.record(request, stream);
    const { McpChatRequest } = loadHostBundle();
    return new McpChatRequest(deps, request, context, recorded?.stream ?? stream, token).run().then((result) => {
      if (recorded) {
        recorded.transcript.done = true;
        recorded.transcript.errorMessage = result.errorDetails?.message;
      }
      return result;
    });
  });
  participant.iconPath = deps.iconPath;
  const openChat = vscode.commands.registerCommand(CHAT_OPEN_COMMAND, (arg: unknown) => {
    const query = linkedChatQuery(arg);
    // Participants answer in Ask mode only.
    return query === undefined ? undefined : vscode.commands.executeCommand('workbench.action.chat.open', { query, mode: 'ask' });
  });
  return vscode.Disposable.from(participant, openChat);
}
