// The mcp.json model shared by config, host and the VS Code layer. Offsets are character offsets into the file text
// (jsonc-parser's), so the VS Code layer can turn them into exact ranges.
import type { LaunchPlan } from './launchPlan';
import type { SandboxConfig } from './sandboxConfig';

/** A range in a config file's text: [offset, offset + length). */
export interface TextSpan {
  offset: number;
  length: number;
}

export type DiagnosticSeverity = 'error' | 'warning';

/** One problem found in an mcp.json file, at its exact place. */
export interface ConfigDiagnostic {
  message: string;
  span: TextSpan;
  severity: DiagnosticSeverity;
  /** Stable code, e.g. 'syntax', 'unknown-type', 'missing-command', 'missing-url', 'wrong-type', 'unknown-input', 'duplicate-name'. */
  code: string;
}

export interface PromptStringInput {
  type: 'promptString';
  id: string;
  description: string;
  password: boolean;
  default?: string;
}

export interface PickStringInput {
  type: 'pickString';
  id: string;
  description: string;
  options: string[];
  default?: string;
}

/** VS Code's `command` input: the value a VS Code command returns (a picker's choice), run with `args`. */
export interface CommandInput {
  type: 'command';
  id: string;
  /** The VS Code command id. */
  command: string;
  /** What the command is given, as written (any JSON value). */
  args?: unknown;
}

export type InputDefinition = PromptStringInput | PickStringInput | CommandInput;

/** `dev.debug` (VS Code's format): the runtime to start the server under, with the editor's debugger attached. */
export type DevDebugConfig = { type: 'node' } | { type: 'debugpy'; /** The debugpy command to run instead of the server's python. */ debugpyPath?: string };

export interface DevModeConfig {
  /** Globs relative to the workspace folder (possibly none). */
  watch: string[];
  debug?: DevDebugConfig;
}

/** How a server's tool calls are approved: every call asked (the default), only tools not annotated read-only, or none. */
export type ToolApproval = 'askEveryCall' | 'askUnlessReadOnly' | 'neverAsk';

/**
 * Which tools of the server are offered, and how their calls are approved. `tools` (Copilot CLI's allow-list, `"*"`:
 * all) and `disabledTools` (a deny-list) switch tools off; `toolApproval` from a workspace file can only tighten.
 */
export interface ToolControlConfig {
  tools?: string[];
  disabledTools?: string[];
  toolApproval?: ToolApproval;
  /** Its tools are always offered by definition, never moved behind tool search by the context budget (`alwaysLoad` too). */
  alwaysOffered?: boolean;
  /** `eager`: started with the window; `onDemand`: dormant (its last run's features shown) until used. Absent: the setting's. */
  startup?: 'eager' | 'onDemand';
}

/** A stdio server entry. As written, its strings still contain ${...} variables; resolved, they are replaced. */
export interface StdioServerConfig extends ToolControlConfig {
  type: 'stdio';
  command: string;
  args: string[];
  /** null removes an inherited variable; numbers are written as strings. */
  env: Record<string, string | null>;
  envFile?: string;
  cwd?: string;
  /** Dev mode (VS Code's `dev`): restart the server when files matching `watch` (globs, relative to the folder) change; `debug`: start it under a debugger. */
  dev?: DevModeConfig;
  /** `"sandboxEnabled": true`: the server runs confined (VS Code's key). */
  sandboxEnabled?: boolean;
  /**
   * The rules of a server that sets `sandboxEnabled`: the file's top-level `sandbox` block and the server's own (MCP
   * Host's, which Import Servers… writes), joined (none: the defaults alone).
   */
  sandbox?: SandboxConfig;
  /** `"disabled": true` (Cline's and Windsurf's key): the server is kept from starting. */
  disabled?: boolean;
}

/** How a remote server's tokens are obtained (`auth` in mcp.json). Secrets are `${input:…}` or `${env:…}` as written. */
export type RemoteAuthType = 'oauth' | 'clientCredentials' | 'privateKeyJwt' | 'crossAppAccess' | 'jwtBearer';
export const REMOTE_AUTH_TYPES: readonly RemoteAuthType[] = ['oauth', 'clientCredentials', 'privateKeyJwt', 'crossAppAccess', 'jwtBearer'];

export interface RemoteAuthConfig {
  /**
   * `oauth`: a person signs in through the browser (the default without `auth`). `clientCredentials`: the client
   * credentials grant with `client_secret_basic`; `privateKeyJwt`: the same grant, the client authenticated by a JWT
   * signed with its private key; `crossAppAccess`: enterprise-managed authorization (an ID token exchanged at the
   * enterprise identity provider for an ID-JAG, redeemed with the JWT bearer grant); `jwtBearer`: the RFC 7523
   * JWT-bearer grant with a JWT the workload holds (workload identity federation), from `assertion`, `assertionFile` or `assertionCommand`.
   */
  type: RemoteAuthType;
  clientId?: string;
  clientSecret?: string;
  /** PEM (PKCS#8) private key, for `privateKeyJwt`. */
  privateKey?: string;
  /** JWS algorithm of the private key (`ES256`, `RS256`, …). */
  algorithm?: string;
  scope?: string;
  /** The authorization server's issuer the credentials belong to: they are never sent to another one. */
  issuer?: string;
  /** `oauth`: a Client ID Metadata Document URL (SEP-991) to use as the client id where supported. */
  clientMetadataUrl?: string;
  /** DPoP-bound tokens (RFC 9449): proofs signed with a key of this client's own. */
  dpop?: boolean;
  /** `jwtBearer`: the JWT itself, a `${input:…}` or `${env:…}` reference. */
  assertion?: string;
  /** `jwtBearer`: an absolute path of a file holding the JWT, read at each token request (it may rotate). */
  assertionFile?: string;
  /** `jwtBearer`: a command and its arguments (no shell) whose output is the JWT, run at each token request. */
  assertionCommand?: string[];
  /** `crossAppAccess`: the enterprise identity provider. */
  idp?: { issuer?: string; tokenEndpoint?: string; clientId: string; clientSecret?: string; idToken: string };
}

export interface RemoteServerConfig extends ToolControlConfig {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** `headersHelper` (Claude Code's): the program and its arguments (no shell) whose output, a JSON object, adds headers at each connection. */
  headersHelper?: string[];
  auth?: RemoteAuthConfig;
  /** `"disabled": true` (Cline's and Windsurf's key): the server is kept from starting. */
  disabled?: boolean;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** A server as written in the file: strings still contain ${...} variables. */
export type RawServer = ServerConfig;
export type RawStdioServer = StdioServerConfig;
export type RawRemoteServer = RemoteServerConfig;

/** A server ready to run: variables resolved. */
export type ResolvedServer = ServerConfig;
export type ResolvedStdioServer = StdioServerConfig;
export type ResolvedRemoteServer = RemoteServerConfig;

export interface RawServerEntry {
  name: string;
  server: RawServer;
  /** Where the server's key is in the file, for diagnostics and "reveal in mcp.json". */
  nameSpan: TextSpan;
}

/** Where a configuration came from: a workspace folder's .vscode/mcp.json, or the user's own mcp.json. */
export interface ConfigScope {
  /** 'workspace' servers need Workspace Trust and per-definition trust; 'user' servers are the user's own. */
  kind: 'workspace' | 'user';
  /** Stable key of the scope: the folder URI for workspace scopes, 'user' for the user file. */
  key: string;
  /** Display label (folder name, or 'User'). */
  label: string;
  /** Absolute path of the workspace folder (for ${workspaceFolder}); undefined for the user scope. */
  folderPath?: string;
  /** Absolute path of the mcp.json file. */
  configPath: string;
  /**
   * How the file writes variables: a file of servers under `mcpServers` (.mcp.json, and the files of the other hosts
   * that share it) also means an environment variable by `${VAR}` and `${VAR:-default}`, as Claude Code and Copilot CLI
   * expand them. Absent: VS Code's variables only.
   */
  dialect?: VariableDialect;
  /**
   * Where in the file its `servers` (or `mcpServers`) and `sandbox` are: `["settings", "mcp"]` in a .code-workspace.
   * Absent: at the file's root. Edits of the file (Run Confined, Allow and Restart) write there.
   */
  configSection?: readonly string[];
  /** VS Code's own MCP support reads this file too (all but MCP Host's own user mcp.json): when on, it starts them too. */
  readByVsCode?: boolean;
}

/** See ConfigScope's `dialect`. */
export type VariableDialect = 'vscode' | 'mcpServers';

/** Result of parsing one mcp.json. Entries with errors are left out of `servers`; the others are kept. */
export interface ParsedConfig {
  servers: RawServerEntry[];
  inputs: InputDefinition[];
  diagnostics: ConfigDiagnostic[];
  /** True when the file could not be parsed as JSON at all (syntax errors): callers keep the last good servers. */
  syntaxBroken: boolean;
  /** Names of server entries left out of `servers` because of errors: callers keep their last good definition. */
  rejectedServers: string[];
  /** How the file was read: VS Code's `servers`, or `mcpServers` (its variables then read as that format's). */
  dialect: VariableDialect;
}

/** A server definition the host can start: resolved, identified and hashed. */
export interface ServerDefinition {
  /** Unique across the window: `${scope.key}::${name}`. */
  id: string;
  name: string;
  scope: ConfigScope;
  /** As written (variables unresolved): what the trust dialog shows and what trust is keyed on. */
  raw: RawServer;
  resolved: ResolvedServer;
  /** Hash of `resolved` plus the scope key: a changed hash means "restart". */
  hash: string;
  /** Values that must never reach a log (password inputs, header values). */
  secrets: string[];
  /** The env file, read once (capped) when the server was prepared: its variables, or why it cannot be used. */
  envFile?: { variables: Record<string, string> } | { error: string };
  /** What the start runs, derived once when the server was prepared: the launcher runs this and nothing else. */
  plan?: LaunchPlan;
}
