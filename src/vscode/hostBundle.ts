// Everything that loads after activation, bundled as dist/host.js: the protocol layer (../core/protocol, which the
// core reaches through loadProtocol) and the UI that runs only when used: answers to @mcp requests, forms for tool
// arguments and elicitation, "MCP: Run Prompt…" and its argument picker, the resource template picker, the rendering
// and conversion of prompts and tool results (result pages, what agents get), tool views (MCP Apps: the panel, the
// AppBridge), the dialogs running sessions ask and the sign-in listener. The VS Code layer reaches it through
// loadHostBundle; it may import this module's types, never its values. A module here imports what it needs directly,
// not through loadHostBundle.
export * from '../core/protocol';
export { modelMessagesToText, promptToModelMessages } from '../core/features/chat/contentConversion';
export { promptToMarkdown, toolResultToMarkdown } from '../core/features/chat/contentMarkdown';
export { LoopbackRedirectReceiver } from '../core/auth/loopbackRedirect';
export { formFromSchema } from '../core/features/forms/formModel';
export { McpChatRequest } from './chat/mcpChatParticipant';
export { PromptArgumentPicker } from './chat/promptArgumentPicker';
export { TemplatePicker } from './resources/templatePicker';
export { runPrompt } from './chat/runPrompt';
export { QuickInputElicitationUi } from './elicitation/quickInputElicitationUi';
export { runQuickInputForm } from './forms/quickInputForm';
export { sessionDialogs } from './sessionDialogs';
export { LanguageModels, toolResultParts } from './languageModels';
export { toolResultToModel } from '../core/features/chat/contentConversion';
export { toolResultView } from '../core/features/tools/toolResultView';
export { AppViewPanel } from './apps/appViewPanel';
export { toolResultHtml } from './tools/toolResultHtml';
export { RegistryBrowser } from './registryBrowser';
