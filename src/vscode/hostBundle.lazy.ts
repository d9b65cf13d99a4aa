// The session layer: everything the extension loads after activation, bundled as dist/host.js. It holds the protocol
// layer (../../core/protocol: the SDK, connections, OAuth, sampling and elicitation) and the UI that runs only when
// used: answers to @mcp requests, forms for tool arguments and elicitation, "MCP: Run Prompt…" and its argument
// picker, the resource template picker, result pages and what agents get of a result, tool views (MCP Apps: the
// panel, the AppBridge), the dialogs running sessions ask. createHost loads it once and hands the loader to whoever
// needs it (see ../sessionLayer); the activation side imports its types, never its values (ESLint says so).
export { SignInError } from '../core/protocol/auth/authErrors.lazy';
export { oauthProviderFactory } from '../core/protocol/auth/oauthProviderFactory.lazy';
export { configuredClientMetadataUrl, staticClients } from '../core/protocol/auth/staticClients.lazy';
export { LoopbackRedirectReceiver } from '../core/protocol/auth/loopbackRedirect.lazy';
export { ElicitationFeature } from '../core/features/elicitation/elicitationFeature.lazy';
export { SamplingFeature } from '../core/features/sampling/samplingFeature.lazy';
export { McpChatRequest } from './chat/mcpChatParticipant.lazy';
export { PromptArgumentPicker } from './prompts/promptArgumentPicker.lazy';
export { TemplatePicker } from './resources/templatePicker.lazy';
export { runPrompt } from './prompts/runPrompt.lazy';
export { QuickInputElicitationUi } from './elicitation/quickInputElicitationUi.lazy';
export { runQuickInputForm } from './elicitation/quickInputForm.lazy';
export { sessionDialogs } from './dialogs/modalDialogs.lazy';
export { trustPromptFrom } from './trust/trustPrompt.lazy';
export { RegistryBrowser } from './mcpRegistry/registryBrowser.lazy';
export { managePermissions } from './trust/permissionsPick.lazy';
export { DevModeWatcher } from './devMode/devModeWatcher.lazy';
export { ToolCallRunner } from './tools/toolCallRunner.lazy';
export { agentTools } from './tools/agentToolCalls.lazy';
export { confinedConnection } from './sandbox/sandboxNotices.lazy';
export { LanguageModels, toolResultParts } from './chat/languageModels.lazy';
export { openAppView } from './apps/appViewPanel.lazy';
export { toolResultHtml } from './tools/toolResultHtml.lazy';
export { CONFIG_TEMPLATE } from './config/configTemplate.lazy';
export { searchedToolList } from '../core/features/tools/toolListSearch';
export { attachSkillCommand, openSkillFile, openSkillFileCommand } from './skills/skillDocuments.lazy';
export { skillRows } from './skills/skillRows.lazy';
export { serverRows, toolTasks } from './tools/taskRows.lazy';
export { mcpJsonCompletionItems } from './config/mcpJsonCompletionItems.lazy';
export { resourceCommandHandlers } from './resources/resourceCommands.lazy';
export { offerCoexistence, pickCoexistence, type CoexistenceChoices } from './coexistence/coexistencePick.lazy';
export { signInToServer, signOutOfServer } from './auth/serverSignIn.lazy';
// The rows' hover texts (see HoverTexts in ../treeNode).
export { promptTooltip, serverTooltip, toolTooltip } from '../core/presentation/serverPresentation';
export { resourceTooltip, templateTooltip } from '../core/presentation/resourcePresentation';
