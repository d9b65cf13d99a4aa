// The launch plan: what a start will do, derived once from the resolved definition, the env file, the inputs and the
// environment the host would pass. The trust question is rendered from it, trust is remembered by its hash, and the
// launcher runs it and nothing else: for a stdio server the executable as PATH finds it (in the server's own
// environment and working directory), the argument vector, the working directory and the whole environment; for a
// remote server its URL, headers and sign-in. What differs from the host's own environment is listed, every entry.
// Its shape and identity live here; it is built on demand (protocol/launch/launchPlanner.lazy.ts), which the
// host reaches through its planLaunch port.
import { hashOf } from './definitionHash';
import type { ConfigScope, DevDebugConfig, RawServer, RemoteAuthConfig, ResolvedServer } from './serverDefinition';

/** Shown instead of a value that is a secret by origin (a password input, a header, an auth secret). */
export const MASK = '••••••';

/** One environment variable the server gets that the host does not have (or has with another value, or that is removed). */
export interface PlannedVariable {
  readonly name: string;
  readonly change: 'added' | 'changed' | 'removed';
  /** Where the difference comes from: `env` in mcp.json, or the env file. */
  readonly source: 'env' | 'env file';
  /** The value as the question shows it: secrets by origin masked, `${env:…}` as the reference. Undefined when removed. */
  readonly shown: string | undefined;
  /** On the allow-list of names known to change nothing about what runs. */
  readonly harmless: boolean;
}

export interface StdioLaunchPlan {
  readonly kind: 'stdio';
  /** The command as resolved from the definition (before the PATH lookup). */
  readonly command: string;
  /** The file that will be executed, as PATH finds it in the server's environment and working directory; undefined: not found. */
  readonly executable: string | undefined;
  readonly args: readonly string[];
  /** The arguments as the question shows them (password inputs masked). */
  readonly argsShown: readonly string[];
  readonly cwd: string | undefined;
  /** The whole environment of the process. */
  readonly env: Readonly<Record<string, string>>;
  /** Every variable of `env` that differs from the host's environment, and every one removed. */
  readonly changes: readonly PlannedVariable[];
  readonly envFile?: { readonly path: string; readonly error?: string };
  /** Copies in the working directory (or above) that a runner such as npx would run instead of the package registry's. */
  readonly localCopies: readonly string[];
  /**
   * The project files that decide what the runner or interpreter runs: a runner's settings (`.npmrc`, `.yarnrc.yml`,
   * `uv.toml`, …) from the working directory up, and the module `python -m` imports from the working directory.
   * Absent when there is none (the plan keeps the identity it had before these were planned).
   */
  readonly runnerFiles?: readonly PlannedRunnerFile[];
  /** The executable is a script: the program its first line (`#!`) starts it with. */
  readonly interpreter?: PlannedInterpreter;
  /** `"sandboxEnabled": true`: what the confined process may do (the file's `sandbox` rules added to the defaults). */
  readonly sandbox?: PlannedSandbox;
  /** `dev.debug`: the debugger it starts under (its arguments are in `args`), or why it starts without one. */
  readonly debug?: PlannedDebug;
}

/** A script's `#!` line and the program it runs, as the server's own PATH finds it (`#!/usr/bin/env node`). */
export interface PlannedInterpreter {
  /** The first line as written. */
  readonly line: string;
  /** The program it names (`node`, or `/bin/sh`). */
  readonly program: string;
  /** Where the server's PATH finds it; undefined: nowhere (the start fails). */
  readonly path: string | undefined;
  /** Not the one your own PATH finds (the server's PATH or working directory changes it): marked, and part of the identity. */
  readonly differs: boolean;
}

/** A project file the runner reads, the local module `python -m` imports, or the working directory python imports from first. */
export interface PlannedRunnerFile {
  readonly path: string;
  /** What reads it (npm, yarn, uv, python3, …). */
  readonly reader: string;
  readonly kind: 'settings' | 'module' | 'imports';
  /** Every setting it makes, as written (comments aside), credentials masked; for `imports`, the modules found there. */
  readonly settings: readonly string[];
  /**
   * The SHA-256 of what the question cannot show whole: a settings file's real contents when a credential was masked
   * (a masked value changed is another plan), the modules python imports from the working directory.
   */
  readonly sha256?: string;
  /** `-m`: the module name it stands for. */
  readonly module?: string;
  /** Said with it: a link's target, or why nothing is read from it. */
  readonly note?: string;
  /** A file a setting runs (`yarnPath`), with its contents' SHA-256: a changed file is another plan. */
  readonly runs?: { readonly path: string; readonly sha256: string };
}

/**
 * A start under a debugger (`dev.debug`): the runtime's debugger arguments come first in `args` (with `debugpyPath`,
 * the command is debugpy), and the editor's debugger meets the server at `host:port`.
 */
export interface PlannedDebug {
  readonly type: DevDebugConfig['type'];
  /** 127.0.0.1. */
  readonly host: string;
  /** Free when the plan was made: node's inspector listens there; debugpy connects there to the editor's debugger. */
  readonly port: number;
  /** How many arguments at the front of `args` (and `argsShown`) are the debugger's. */
  readonly addedArgs: number;
  /** Why it starts without a debugger although `dev.debug` asks for one (none of that type here): nothing is added. */
  readonly unavailable?: string;
  /** Its part of the plan's identity: the type, the debugger's arguments without the port (picked at each start), whether unavailable. */
  readonly identity: string;
}

/** What the editor can attach, handed to the plan (none: the server starts without a debugger, as its plan says). */
export interface DebuggerSupport {
  /** A port on 127.0.0.1 that was free a moment ago. */
  readonly port: number;
  /** The debugger types the editor has (its debugger extensions). */
  readonly types: readonly DevDebugConfig['type'][];
  /** The debugpy the Python Debugger extension bundles (a folder the server's python runs), when it has one. */
  readonly debugpyPackage?: string;
}

/**
 * A confined start's rules, complete, as the sandbox gets them: paths absolute (`~` expanded). Besides these, the
 * process may write a private temp dir of its own (made at each start, its TMPDIR), reaches no port of this machine
 * unless `domains` names it (it has its own loopback), and never writes what programs outside the sandbox run or obey
 * (`.git` settings and hooks, editor and shell settings, … in every folder it may write: see sandboxProtection).
 */
export interface PlannedSandbox {
  /**
   * The files other configured servers run or are given, where it may write: not writable while it runs (they run
   * unconfined). Not part of what is trusted: another server's edit does not ask about this one again.
   */
  readonly runByOthers?: readonly string[];
  /** The home folder, hidden but for `readable`. */
  readonly home: string;
  /** Hidden: the home folder, and every `denyRead` (which wins even inside a readable folder). */
  readonly hidden: readonly string[];
  /** Readable inside a hidden folder: the working directory, the workspace folder, the runner itself, … */
  readonly readable: readonly string[];
  /** Writable: the working directory and every `allowWrite`. */
  readonly writable: readonly string[];
  /**
   * Its runner's own package cache (npm's, uv's, …): a folder of this server's in the extension's storage, readable and
   * writable, in place of the user's cache (which unconfined runs execute from).
   */
  readonly cache?: string;
  /** The extension's storage (the user's mcp.json, the servers' caches): never writable, never allowed. */
  readonly storage: string;
  /** Not writable even inside a writable folder: every `denyWrite`. */
  readonly notWritable: readonly string[];
  /** The hosts it may reach (through the sandbox's proxy): the runner's package registry and every `allowedDomains`. */
  readonly domains: readonly string[];
  readonly deniedDomains: readonly string[];
}

export interface PlannedEndpoint {
  /** What it is, in words ("the MCP server", "the token endpoint of …"). */
  readonly role: string;
  readonly url: string;
}

export interface RemoteLaunchPlan {
  readonly kind: 'remote';
  readonly transport: 'http' | 'sse';
  readonly url: string;
  /** A `unix:` or `pipe:` URL's socket: where the requests go, and the HTTP path asked for. */
  readonly socket?: SocketAddress;
  /** Every header, the value as written with its literal text masked. */
  readonly headers: readonly { readonly name: string; readonly shown: string }[];
  /** The sign-in, complete: its type, what it identifies itself as, every endpoint and every secret and where it goes. */
  readonly auth: {
    readonly type: RemoteAuthConfig['type'];
    readonly configured: boolean;
    readonly facts: readonly string[];
    readonly endpoints: readonly PlannedEndpoint[];
    readonly secrets: readonly { readonly field: string; readonly shown: string; readonly sentTo: string }[];
    readonly warnings: readonly string[];
  };
  /** `headersHelper`: run on this machine before each connection; the headers it prints are sent, kept secret. */
  readonly headersHelper?: PlannedHeadersHelper;
  /** Headers and auth as resolved: what the launcher sends. */
  readonly resolved: ResolvedServer & { type: 'http' | 'sse' };
}

/** Where a `unix:` or `pipe:` URL's requests go. */
export interface SocketAddress {
  readonly kind: 'unix' | 'pipe';
  /** What `net.connect` is given: the socket's absolute path, or `\\.\pipe\<name>`. */
  readonly socketPath: string;
  /** The HTTP path asked for through it. */
  readonly httpPath: string;
}

export interface PlannedHeadersHelper {
  /** The program and its arguments as written (variables as their references). */
  readonly command: readonly string[];
  /** The program as PATH finds it (what is started). */
  readonly executable: string;
  /** The file that runs when `executable` is a link (its target), else `executable`. */
  readonly realPath: string;
  /**
   * The configuration folder's files it runs or is given (the program, a script argument), with their contents'
   * SHA-256: a changed file is another plan, and is not run until it is trusted as it is.
   */
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
  /** The arguments, variables resolved: what it is given. */
  readonly args: readonly string[];
  /** The configuration's folder (the home folder for the user's files). */
  readonly cwd: string;
}

export type LaunchPlan = StdioLaunchPlan | RemoteLaunchPlan;

export interface StdioPlanSource {
  scope: Pick<ConfigScope, 'folderPath'> & Partial<Pick<ConfigScope, 'configPath'>>;
  /** Variables resolved. */
  resolved: ResolvedServer & { type: 'stdio' };
  /** The same definition resolved for display: password inputs as the mask, `${env:X}` as the reference. */
  shown: ResolvedServer & { type: 'stdio' };
  envFile?: { path: string; variables?: Record<string, string>; error?: string };
  hostEnv: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  isExecutable?(file: string): boolean;
  /** The home folder a confined start hides (default: the host's HOME). */
  home?: string;
  /** `dev.debug`: the debugger the editor can attach. */
  debuggers?: DebuggerSupport;
  /** The server's name: a confined start's own package cache is this server's. */
  name?: string;
  /** The extension's storage, where confined servers keep their own package caches (default: ~/.cache/mcp-host). */
  sandboxStorage?: string;
  /** The files other configured servers run (a confined start may not write them). */
  runByOthers?: readonly string[];
}

export interface RemotePlanSource {
  resolved: ResolvedServer & { type: 'http' | 'sse' };
  /** Resolved for display (a `headersHelper`'s arguments as the question shows them). */
  shown?: ResolvedServer;
  /** Where a `headersHelper` runs, and the environment its program is looked up in. */
  scope?: Pick<ConfigScope, 'folderPath'>;
  hostEnv?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  isExecutable?(file: string): boolean;
  /** As written (variables unresolved): headers and secrets are shown as their references. */
  raw: ResolvedServer & { type: 'http' | 'sse' };
}

/**
 * The plan's identity, for "trusted": what the question showed, and nothing it did not. So no secret's hash is ever
 * stored (a password input counts as its mask, a `${env:…}` value as its reference: the user's own environment), and
 * every change the user would see in the question (a variable, an env file's value, another file found on PATH, the
 * working directory, a local copy, a header or sign-in) makes another identity, which is asked about again.
 */
export function launchPlanHash(scopeKey: string, name: string, plan: LaunchPlan): string {
  if (plan.kind === 'stdio') {
    const changes = plan.changes.map((c) => [c.name, c.change, c.source, c.shown ?? null]);
    const { debug } = plan;
    const base = { v: 2, scope: scopeKey, name, kind: 'stdio', command: plan.command, executable: plan.executable ?? null, args: plan.argsShown.slice(debug?.addedArgs), cwd: plan.cwd ?? null, changes, envFile: plan.envFile ?? null, localCopies: plan.localCopies };
    // Unconfined plans (and those without a debugger, or without runner files) keep the identity they had before: their trust stands.
    // The interpreter your own PATH finds is yours, as the environment you give is: only another one is asked about.
    const { runnerFiles, interpreter: i } = plan;
    const debugged = { ...base, ...(runnerFiles?.length && { runnerFiles }), ...(i?.differs && { interpreter: [i.line, i.path ?? null] }), ...(debug && { debug: debug.identity }) };
    if (!plan.sandbox) return hashOf(debugged);
    // What other servers run changes with their definitions, not with this plan: not part of its identity.
    const sandbox: { -readonly [K in keyof PlannedSandbox]?: PlannedSandbox[K] } = { ...plan.sandbox };
    delete sandbox.runByOthers;
    return hashOf({ ...debugged, sandbox });
  }
  // A plan without a headers helper keeps the identity it had before one could be planned: its trust stands.
  const h = plan.headersHelper;
  const helper = h && { command: h.command, executable: h.executable, realPath: h.realPath, cwd: h.cwd, files: h.files };
  return hashOf({ v: 2, scope: scopeKey, name, kind: 'remote', transport: plan.transport, url: plan.url, headers: plan.headers, auth: plan.auth, ...(helper ? { headersHelper: helper } : {}) });
}

export interface LaunchPlanSource {
  scope: Pick<ConfigScope, 'folderPath'> & Partial<Pick<ConfigScope, 'configPath'>>;
  /** As written: headers and auth secrets are shown as their references. */
  raw: ResolvedServer;
  resolved: ResolvedServer;
  /** Resolved for display (password inputs masked, `${env:X}` kept as the reference). */
  shown: ResolvedServer;
  envFile?: { path: string; variables?: Record<string, string>; error?: string };
  hostEnv: Record<string, string | undefined>;
  /** `dev.debug`: the debugger the editor can attach (the VS Code side adds it). */
  debuggers?: DebuggerSupport;
  /** The server's name (its own package cache when confined). */
  name?: string;
  /** Where confined servers keep their own package caches: the extension's storage (the host adds it). */
  sandboxStorage?: string;
  /** The other configured servers (the host adds them): a confined start may not write the files they run. */
  otherServers?: readonly DefinedServer[];
}

/** A configured server as written, with its file's folder. */
export interface DefinedServer {
  scope: Pick<ConfigScope, 'folderPath'>;
  raw: RawServer;
}

/** Builds the plan of one start, or says why the definition must not run (shown as a configuration problem). */
export type PlanLaunch = (source: LaunchPlanSource) => PlanLaunchResult | Promise<PlanLaunchResult>;
export type PlanLaunchResult = { ok: true; plan: LaunchPlan } | { ok: false; message: string };
