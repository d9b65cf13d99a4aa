// The session layer: everything the extension loads after activation, bundled as dist/host.js. It holds the protocol
// layer (../../core/protocol: the SDK, connections, OAuth, sampling and elicitation) and the UI that runs only when
// used: answers to @mcp requests, forms for tool arguments and elicitation, "MCP: Run Prompt…" and its argument
// picker, the resource template picker, result pages and what agents get of a result, tool views (MCP Apps: the
// panel, the AppBridge), the dialogs running sessions ask. createHost loads it once and hands the loader to whoever
// needs it (see ../sessionLayer); the activation side imports its types, never its values (ESLint says so).
export * from '../../core/protocol';
export { McpChatRequest } from './chat/mcpChatParticipant';
export { PromptArgumentPicker } from './chat/promptArgumentPicker';
export { TemplatePicker } from './templatePicker';
export { runPrompt } from './chat/runPrompt';
export { QuickInputElicitationUi } from './quickInputElicitationUi';
export { runQuickInputForm } from './quickInputForm';
export { sessionDialogs } from './sessionDialogs';
export { trustPromptFrom } from './trustPrompt';
export { RegistryBrowser } from './registryBrowser';
export { managePermissions } from './permissionsPick';
export { DevModeWatcher } from './devModeWatcher';
export { ToolCallRunner } from './toolCallRunner';
export { agentTools } from './agentToolCalls';
export { confinedConnection } from './sandboxNotices';
export { LanguageModels, toolResultParts } from './languageModels';
export { openAppView } from './appViewPanel';
export { toolResultHtml } from './toolResultHtml';
export { CONFIG_TEMPLATE } from './configTemplate';
export { searchedToolList } from '../../core/features/tools/toolListSearch';
export { attachSkillCommand, openSkillFile, openSkillFileCommand } from './skillDocuments';
export { skillRows } from './skillRows';
export { serverRows, toolTasks } from './taskRows';
export { mcpJsonCompletionItems } from './mcpJsonCompletionItems';
export { resourceCommandHandlers } from './resourceCommands';
export { offerCoexistence, pickCoexistence, type CoexistenceChoices } from './coexistencePick';
export { signInToServer, signOutOfServer } from './signInCommands';
// The rows' hover texts (see HoverTexts in ../treeNode).
export { promptTooltip, serverTooltip, toolTooltip } from '../../core/presentation/serverPresentation';
export { resourceTooltip, templateTooltip } from '../../core/presentation/resourcePresentation';
