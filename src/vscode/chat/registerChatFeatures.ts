// Prompts and tools for people and agents: the @mcp chat participant, "MCP: Run Prompt…", "MCP: Call Tool…",
// "MCP: Reset Tool Permissions", and the language model tools that give every agent the MCP tools, sharing one
// consent policy and one tool caller.
import vscode = require('vscode');
import { runningSession, type SessionPort } from '../../core/host/serverSession';
import type { ToolCaller, ToolTaskRunner } from '../../core/features/tools/toolCaller';
import type { ToolConsent, ToolConsentDeps } from '../../core/features/tools/toolConsent';
import type { ActiveToolCalls } from '../../core/features/tools/activeToolCalls';
import type { PermissionStore } from '../../core/host/permissionStore';
import { AppViews } from '../apps/appViews';
import type { OpenAppView } from '../apps/appViewTypes';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { registerAgentTools, type AgentToolCallDeps, type AgentTools, type PreparedAgentCall } from '../tools/registerAgentTools';
import { registerToolCommands, type ToolCallRunner, type ToolCallRunnerDeps } from '../tools/toolCommands';
import { readToolSettings } from '../tools/toolSettings';
import { ChatDocuments } from './chatDocuments';
import type { ChatTranscripts } from './chatTranscripts';
import { registerChatParticipant, type AnswerChatRequest, type ChatResources } from './registerChatParticipant';
import { registerRunPromptCommand, type RunPrompt } from '../prompts/runPromptCommand';

/** What chat and tools do once used, built on first use. */
export interface ChatParts {
  answerChatRequest: AnswerChatRequest;
  runPrompt: RunPrompt;
  agentTools(deps: AgentToolCallDeps): AgentTools;
  toolCallRunner(deps: ToolCallRunnerDeps): ToolCallRunner;
  toolConsent(deps: ToolConsentDeps): ToolConsent;
  toolCaller(sessions: SessionPort, activeCalls: ActiveToolCalls, consent: ToolConsent, tasks?: ToolTaskRunner, backgroundAfterMs?: () => number): ToolCaller;
  /** Where tool calls that run as tasks go (the Tasks group of the Servers view). */
  toolTasks: ToolTaskRunner;
  openAppView: OpenAppView;
  /** Extension tests: records @mcp's responses (made in test runs only). */
  chatTranscripts(): ChatTranscripts;
}

export interface ChatFeatureDeps {
  sessions: SessionPort;
  parts: ChatParts;
  permissions: PermissionStore;
  dialogs: HostDialogs;
  activeToolCalls: ActiveToolCalls;
  /** The resources feature: reading resources, their documents, and what the user attached to chat. */
  resources: ChatResources;
  extensionUri: vscode.Uri;
  /** The extension's version (what views are told the host is). */
  version: string;
  /** Extension tests: record chat responses so tests can read them. */
  testMode: boolean;
}

export interface ChatFeatures {
  disposables: vscode.Disposable[];
  transcripts?: ChatTranscripts;
  /** Extension tests: how each agent call of an MCP tool was prepared (its confirmation, if any). */
  agentCalls?: PreparedAgentCall[];
  /** Views of tool results (MCP Apps). */
  views: AppViews;
  /** The one guarded tool call path every surface shares (the gateway's too). */
  caller: ToolCaller;
}

export function registerChatFeatures(deps: ChatFeatureDeps): ChatFeatures {
  const { resources } = deps;
  const { parts } = deps;
  const consent = parts.toolConsent({
    permissions: deps.permissions,
    ask: (q) => deps.dialogs.confirmToolCall(q),
    autoAllowReadOnly: () => readToolSettings().autoAllowReadOnly,
  });
  const caller = parts.toolCaller(deps.sessions, deps.activeToolCalls, consent, parts.toolTasks, () => readToolSettings().backgroundAfterMs);
  const transcripts = deps.testMode ? parts.chatTranscripts() : undefined;
  const documents = new ChatDocuments();
  const agentCalls: PreparedAgentCall[] | undefined = deps.testMode ? [] : undefined;
  const views = new AppViews(
    { sessions: deps.sessions, runningSession: (id) => runningSession(deps.sessions, id), consent, caller, dialogs: deps.dialogs, extensionUri: deps.extensionUri, hostVersion: deps.version },
    parts.openAppView,
  );
  return {
    transcripts,
    agentCalls,
    views,
    caller,
    disposables: [
      documents,
      views,
      registerChatParticipant({
        sessions: deps.sessions,
        consent,
        caller,
        settings: readToolSettings,
        resources,
        documents,
        views,
        iconPath: vscode.Uri.joinPath(deps.extensionUri, 'media', 'mcp-chat.svg'),
        transcripts,
      }, parts.answerChatRequest),
      registerRunPromptCommand({ sessions: deps.sessions, resources, documents }, parts.runPrompt),
      registerAgentTools(parts.agentTools({ sessions: deps.sessions, consent, caller, resources, settings: readToolSettings, views, record: agentCalls })),
      ...registerToolCommands({
        sessions: deps.sessions,
        toolCallRunner: parts.toolCallRunner,
        consent,
        caller,
        dialogs: deps.dialogs,
        views,
      }),
    ],
  };
}
