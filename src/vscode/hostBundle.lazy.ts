// The entry of dist/host.js: what the composition root (./createHost.ts) builds on demand, and nothing else. It holds
// the protocol (the SDK, connections, OAuth), the features' lazy parts (sampling, elicitation, the chat tool loop, tool
// views, tool tasks) and the UI that runs only when used. createHost requires it once, at the first use of a part;
// every other file receives the parts as the interfaces their callers declare.
import { createElicitationFeature, type ElicitationWiring } from './elicitation/createElicitationFeature.lazy';
import { DevModeWatcher } from './devMode/devModeWatcher.lazy';
import type { ServerManager } from '../core/host/serverManager';
import { RegistryBrowser } from './mcpRegistry/registryBrowser.lazy';
import type { RegistryBrowserDeps } from './mcpRegistry/registerRegistryCommands';
import { ToolCallRunner } from './tools/toolCallRunner.lazy';
import { ChatTranscriptRecorder } from './chat/chatTranscripts.lazy';
import type { ToolCallRunnerDeps } from './tools/toolCommands';
import { createSamplingFeature, type SamplingWiring } from './sampling/createSamplingFeature.lazy';
import type { HoverTexts } from './servers/treeNode';
import { promptTooltip, serverTooltip, toolTooltip } from '../core/presentation/serverPresentation';
import { offerSizeText, toolSizeText } from './tools/offerSizes.lazy';
import { resourceTooltip, templateTooltip } from '../core/presentation/resourcePresentation';
import { ToolCaller } from '../core/features/tools/toolCaller';
import { ToolConsent, type ToolConsentDeps } from '../core/features/tools/toolConsent';
import { ResourceDocuments } from './resources/resourceDocuments.lazy';
import { ResourcesTreeProvider } from './resources/resourcesTree.lazy';
import { ResourceOpener } from './resources/resourceOpener.lazy';
import type { ResourceDocumentsDeps } from './resources/resourceFileSystemProvider';

// Dialogs, trust and the confined connection: asked once a start's plan is built.
import { KnownRunStore } from '../core/host/knownRunStore.lazy';
import { TrustQuestions } from '../core/host/trustQuestions.lazy';
export { modalDialogs } from './dialogs/modalDialogs.lazy';
export { trustPromptFrom } from './trust/trustPrompt.lazy';
export { confinedConnection } from './sandbox/sandboxNotices.lazy';
export { managePermissions } from './trust/permissionsPick.lazy';
export { createOAuth } from './auth/oauthSupport.lazy';
export { signInToServer, signOutOfServer } from './auth/serverSignIn.lazy';

// Client features every session gets.
export const samplingFeature = (wiring: SamplingWiring) => createSamplingFeature(wiring);
export const elicitationFeature = (wiring: ElicitationWiring) => createElicitationFeature(wiring);

// Chat, prompts and tools.
export { answerChatRequest } from './chat/mcpChatParticipant.lazy';
export const chatTranscripts = () => new ChatTranscriptRecorder();
export { runPrompt } from './prompts/runPrompt.lazy';
export { activeArgumentPick } from './prompts/promptArgumentPicker.lazy';
export { agentTools } from './tools/agentToolCalls.lazy';
export { serverRows } from './tools/taskRows.lazy';
export { toolTasks } from './tools/backgroundEnds.lazy';
export const knownRunStore = (...args: ConstructorParameters<typeof KnownRunStore>) => new KnownRunStore(...args);
export const trustQuestions = (...args: ConstructorParameters<typeof TrustQuestions>) => new TrustQuestions(...args);
export { switchTools, toolChoiceStore } from './tools/toolChoices.lazy';
export const toolCallRunner = (deps: ToolCallRunnerDeps) => new ToolCallRunner(deps);
export const toolConsent = (deps: ToolConsentDeps) => new ToolConsent(deps);
export const toolCaller = (...args: ConstructorParameters<typeof ToolCaller>) => new ToolCaller(...args);
export { openAppView } from './apps/appViewPanel.lazy';

// Resources, skills, configuration, the MCP Registry, dev mode, VS Code's own MCP beside ours.
export { resourceCommands } from './resources/resourceCommands.lazy';
export const resourceDocuments = (deps: ResourceDocumentsDeps) => new ResourceDocuments(deps);
export const resourcesTree = (...args: ConstructorParameters<typeof ResourcesTreeProvider>) => new ResourcesTreeProvider(...args);
export const resourceOpener = (...args: ConstructorParameters<typeof ResourceOpener>) => new ResourceOpener(...args);
export { attachSkillCommand, openSkillFileCommand } from './skills/skillDocuments.lazy';
export { CONFIG_TEMPLATE } from './config/configTemplate.lazy';
export { enableServerInFile } from './servers/enableServer.lazy';
export { serverCommandHandlers } from './servers/serverCommands.lazy';
export { mcpJsonCompletionItems } from './config/mcpJsonCompletionItems.lazy';
export const registryBrowser = (deps: RegistryBrowserDeps) => new RegistryBrowser(deps);
export const devModeWatcher = (manager: ServerManager) => new DevModeWatcher(manager);
export { offerCoexistence, pickCoexistence } from './coexistence/coexistencePick.lazy';
export { showTrustNotice } from './trust/trustNoticeShow.lazy';

/** The rows' Markdown tooltips (see HoverTexts in ./servers/treeNode). */
export const hoverTexts: HoverTexts = { serverTooltip, toolTooltip, promptTooltip, resourceTooltip, templateTooltip, offerSize: offerSizeText, toolSize: toolSizeText };
