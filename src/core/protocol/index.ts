// The protocol layer: the SDK (its Client, transports, errors, URI templates, OAuth flows) and what runs only inside
// sessions (connections, OAuth, the sampling and elicitation features, forms, content conversion, tool views). It
// loads when the first server starts: in the extension it is part of the session layer's bundle, dist/host.js (see
// src/vscode/session), so activation loads none of it. Code outside src/core/protocol and src/vscode/session may
// import its types, never its values (ESLint says so at the line); front ends hand the host what it needs from here
// once (createCoreHost's `createConnection` and `planLaunch`). This module lists what the extension's activation side is handed.
export { SignInError } from './auth/authErrors';
export { oauthProviderFactory } from './auth/oauthProviderFactory';
export { configuredClientMetadataUrl, staticClients } from './auth/staticClients';
export { LoopbackRedirectReceiver } from './auth/loopbackRedirect';
export { ElicitationFeature } from './features/elicitationFeature';
export { SamplingFeature } from './features/sampling/samplingFeature';
export { formFromSchema } from './features/formModel';
export { modelMessagesToText, promptToModelMessages, toolResultToModel } from './features/chat/contentConversion';
export { promptToMarkdown, toolResultToMarkdown } from './features/chat/contentMarkdown';
export { toolResultView } from './features/tools/toolResultView';
export { createConnection } from './serverConnection';
export { planLaunch } from './launch/launchPlanner';
export { AgentCalls } from './features/tools/agentCallIdentity';
export { skillAwareCaller, withSkillTools } from './features/skills/skillTool';
