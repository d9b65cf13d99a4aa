// Everything that loads after activation, bundled as dist/host.js: the protocol layer (../core/protocol, which the
// core reaches through loadProtocol) and the UI that runs only when used: answers to @mcp requests, forms for tool
// arguments and elicitation, the rendering of prompts and tool results. The VS Code layer reaches it through
// loadHostBundle; it may import this module's types, never its values.
export * from '../core/protocol';
export { modelMessagesToText, promptToModelMessages } from '../core/features/chat/contentConversion';
export { promptToMarkdown, toolResultToMarkdown } from '../core/features/chat/contentMarkdown';
export { formFromSchema } from '../core/features/forms/formModel';
export { MAX_VIEW_HEIGHT, startAppViewHost } from '../core/features/apps/appViewHost';
export { McpChatRequest } from './chat/mcpChatParticipant';
export { QuickInputElicitationUi } from './elicitation/quickInputElicitationUi';
export { runQuickInputForm } from './forms/quickInputForm';
export { LanguageModels } from './languageModels';
