// Prompts and tools for people and agents: the @mcp chat participant, "MCP: Run Prompt…", "MCP: Call Tool…",
// "MCP: Reset Tool Permissions", and the language model tools that give every agent the MCP tools, sharing one
// consent policy and one tool caller.
import vscode = require('vscode');
import { runningSession, type SessionPort } from '../../core/host/serverSession';
import { ToolCaller } from '../../core/features/tools/toolCaller';
import { ToolConsent } from '../../core/features/tools/toolConsent';
import type { ActiveToolCalls } from '../../core/features/tools/activeToolCalls';
import type { PermissionStore } from '../../core/host/permissionStore';
import { AppViews } from '../apps/appViews';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { registerAgentTools, type PreparedAgentCall } from '../tools/registerAgentTools';
import { registerToolCommands } from '../tools/toolCommands';
import { readToolSettings } from '../tools/toolSettings';
import { ChatDocuments } from './chatDocuments';
import { ChatTranscripts } from './chatTranscripts';
import type { ChatResources } from './mcpChatParticipant.lazy';
import type { PromptArgumentPicker } from '../prompts/promptArgumentPicker.lazy';
import type { LoadSessionLayer } from '../sessionLayer';
import { registerChatParticipant } from './registerChatParticipant';
import { registerRunPromptCommand } from '../prompts/runPromptCommand';

export interface ChatFeatureDeps {
  sessions: SessionPort;
  session: LoadSessionLayer;
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
  /** The prompt argument picker, once a prompt was run (it loads with the session layer). */
  readonly picker: PromptArgumentPicker | undefined;
  transcripts?: ChatTranscripts;
  /** Extension tests: how each agent call of an MCP tool was prepared (its confirmation, if any). */
  agentCalls?: PreparedAgentCall[];
  /** Views of tool results (MCP Apps). */
  views: AppViews;
}

export function registerChatFeatures(deps: ChatFeatureDeps): ChatFeatures {
  const { resources } = deps;
  const consent = new ToolConsent({
    permissions: deps.permissions,
    ask: (q) => deps.dialogs.confirmToolCall(q),
    autoAllowReadOnly: () => readToolSettings().autoAllowReadOnly,
  });
  // Tools that run as tasks go to the session layer's task registry (the Tasks group of the Servers view).
  const caller = new ToolCaller(deps.sessions, deps.activeToolCalls, consent, () => deps.session().toolTasks());
  let pickerInstance: PromptArgumentPicker | undefined;
  // Created when a prompt first asks for its arguments: the picker is in the session layer.
  const picker = (): PromptArgumentPicker => (pickerInstance ??= new (deps.session().PromptArgumentPicker)(deps.sessions));
  const transcripts = deps.testMode ? new ChatTranscripts() : undefined;
  const documents = new ChatDocuments();
  const agentCalls: PreparedAgentCall[] | undefined = deps.testMode ? [] : undefined;
  const views = new AppViews(
    { sessions: deps.sessions, runningSession: (id) => runningSession(deps.sessions, id), consent, caller, dialogs: deps.dialogs, extensionUri: deps.extensionUri, hostVersion: deps.version },
    (call, viewDeps, column) => deps.session().openAppView(call, viewDeps, column),
  );
  return {
    get picker() {
      return pickerInstance;
    },
    transcripts,
    agentCalls,
    views,
    disposables: [
      documents,
      views,
      registerChatParticipant({
        sessions: deps.sessions,
        consent,
        caller,
        get picker() {
          return picker();
        },
        settings: readToolSettings,
        resources,
        documents,
        views,
        iconPath: vscode.Uri.joinPath(deps.extensionUri, 'media', 'mcp-chat.svg'),
        transcripts,
      }, deps.session),
      registerRunPromptCommand({
        sessions: deps.sessions,
        get picker() {
          return picker();
        },
        resources,
        documents,
      }, deps.session),
      registerAgentTools({ sessions: deps.sessions, session: deps.session, consent, caller, resources, settings: readToolSettings, views, record: agentCalls }),
      ...registerToolCommands({
        sessions: deps.sessions,
        session: deps.session,
        consent,
        caller,
        dialogs: deps.dialogs,
        views,
      }),
    ],
  };
}
