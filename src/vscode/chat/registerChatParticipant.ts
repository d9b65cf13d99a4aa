// The @mcp chat participant, registered on activation; what answers a request (./mcpChatParticipant) loads with the
// session layer on the first request.
import vscode = require('vscode');
import { linkedChatQuery } from '../../core/features/chat/chatListings';
import type { LoadSessionLayer } from '../sessionLayer';
import type { ChatParticipantDeps } from './mcpChatParticipant.lazy';
import { CommandIds } from '../../core/common/commandIds';

const PARTICIPANT_ID = 'mcpHost.mcp';

export function registerChatParticipant(deps: ChatParticipantDeps, session: LoadSessionLayer): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => {
    const recorded = deps.transcripts?.record(request, stream);
    const { McpChatRequest } = session();
    return new McpChatRequest(deps, request, context, recorded?.stream ?? stream, token).run().then((result) => {
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
