// The protocol layer in one module: the SDK (its Client, transports, errors and URI templates) and what runs only
// inside sessions (connections, OAuth, the sampling and elicitation features). esbuild puts it in the host bundle,
// dist/host.js (see src/vscode/hostBundle.ts), which `loadProtocol` requires when the first server starts or the
// first protocol object is needed: activation, in every window, loads none of it. Whatever the activation side needs
// from here, it gets through `loadProtocol()`; it may import this module's types, never its values.
export { ResourceNotFoundError, UriTemplate } from '@modelcontextprotocol/client';
export { SignInError } from './auth/authErrors';
export { hasStoredAuth, signOut } from './auth/oauthProvider';
export { oauthProviderFactory } from './auth/oauthProviderFactory';
export { clientSecretKey, configuredClientMetadataUrl, staticClients } from './auth/staticClients';
export { ElicitationFeature } from './features/elicitation/elicitationFeature';
export { SamplingFeature } from './features/sampling/samplingFeature';
export { onListenerError } from './host/events';
export { ServerConnection } from './host/serverConnection';
