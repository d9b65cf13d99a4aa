// ${...} variables of mcp.json: their resolution (the grammar, which the parser's diagnostics share, is ./variableSyntax).
import { addHeaderSecrets } from './headerSecrets';
import * as path from 'node:path';
import type { InputDefinition, RawServer, RemoteAuthConfig, ResolvedServer, VariableDialect } from './serverDefinition';
import { variablesIn, type VariableOccurrence } from './variableSyntax';

export interface VariableContext {
  /** Absolute path of the workspace folder; undefined for the user scope. */
  folderPath?: string;
  userHome: string;
  env: Record<string, string | undefined>;
  pathSeparator: string;
  /** Asks the user for an input's value; undefined means the user cancelled. */
  resolveInput(input: InputDefinition): Promise<string | undefined>;
  /** How the file writes variables (its scope's `dialect`). */
  dialect?: VariableDialect;
  /** A VS Code setting for `${config:name}`; absent where there are no settings (the command line). */
  setting?(name: string): SettingValue;
  /** For display: an environment variable shows as its reference, as written, never its value. */
  showReferences?: boolean;
  /**
   * Runs a VS Code command for a value (`${command:id}`, an input of type `command`); undefined: declined or
   * cancelled. Absent where there is no VS Code (the command line).
   */
  runCommand?(command: string, args: unknown): Promise<string | undefined>;
}

/** A setting's effective value, and whether the workspace set it (its own settings, or a folder's) rather than the user. */
export interface SettingValue {
  value: unknown;
  fromWorkspace: boolean;
}

/** A variable that cannot be resolved: unknown, undeclared, or not valid in this scope. */
export class VariableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VariableError';
  }
}

/** The user dismissed the prompt for an input: the server must not start, but nothing is wrong with the config. */
export class InputCancelledError extends Error {
  constructor(readonly inputId: string) {
    super(`No value was given for input "${inputId}".`);
    this.name = 'InputCancelledError';
  }
}

type StringRole = 'plain' | 'path' | 'header' | 'secret';

/** The one place that knows which fields of a server hold strings with variables. */
function mapStrings(raw: RawServer, f: (value: string, role: StringRole) => string): ResolvedServer {
  if (raw.type === 'stdio') {
    const debug = raw.dev?.debug;
    return {
      type: 'stdio',
      command: f(raw.command, 'plain'),
      args: raw.args.map((a) => f(a, 'plain')),
      env: Object.fromEntries(Object.entries(raw.env).map(([k, v]) => [k, v === null ? null : f(v, 'plain')])),
      ...(raw.envFile !== undefined ? { envFile: f(raw.envFile, 'path') } : {}),
      ...(raw.cwd !== undefined ? { cwd: f(raw.cwd, 'path') } : {}),
      // Taken as written: the launch plan resolves its paths (protocol/launch/sandboxPolicy.lazy.ts).
      ...(raw.sandboxEnabled ? { sandboxEnabled: true, sandbox: raw.sandbox } : {}),
      // Only `debug` changes how it starts (the plan shows it); the watched files are the file watcher's.
      ...(debug && { dev: { watch: [], debug: 'debugpyPath' in debug && debug.debugpyPath ? { ...debug, debugpyPath: f(debug.debugpyPath, 'plain') } : debug } }),
    };
  }
  return {
    type: raw.type,
    url: f(raw.url, 'plain'),
    headers: Object.fromEntries(Object.entries(raw.headers).map(([k, v]) => [k, f(v, 'header')])),
    ...(raw.headersHelper ? { headersHelper: raw.headersHelper.map((a) => f(a, 'plain')) } : {}),
    ...(raw.auth ? { auth: mapAuthStrings(raw.auth, f) } : {}),
  };
}

const AUTH_SECRETS = new Set(['clientSecret', 'privateKey', 'assertion']);

function mapAuthStrings(auth: RemoteAuthConfig, f: (value: string, role: StringRole) => string): RemoteAuthConfig {
  const out: RemoteAuthConfig = { type: auth.type, ...(auth.dpop !== undefined ? { dpop: auth.dpop } : {}) };
  for (const key of ['clientId', 'clientSecret', 'privateKey', 'algorithm', 'scope', 'issuer', 'clientMetadataUrl', 'assertion', 'assertionFile'] as const) {
    const value = auth[key];
    if (value !== undefined) out[key] = f(value, AUTH_SECRETS.has(key) ? 'secret' : 'plain');
  }
  if (auth.assertionCommand) out.assertionCommand = auth.assertionCommand.map((a) => f(a, 'plain'));
  if (auth.idp) {
    const { issuer, tokenEndpoint, clientId, clientSecret, idToken } = auth.idp;
    out.idp = {
      clientId: f(clientId, 'plain'),
      idToken: f(idToken, 'secret'),
      ...(issuer !== undefined ? { issuer: f(issuer, 'plain') } : {}),
      ...(tokenEndpoint !== undefined ? { tokenEndpoint: f(tokenEndpoint, 'plain') } : {}),
      ...(clientSecret !== undefined ? { clientSecret: f(clientSecret, 'secret') } : {}),
    };
  }
  return out;
}

function allStrings(raw: RawServer): string[] {
  const strings: string[] = [];
  mapStrings(raw, (s) => {
    strings.push(s);
    return s;
  });
  return strings;
}

/** The VS Code commands a server's `${command:id}` variables run, each once, in the order they appear. */
export function referencedCommands(raw: RawServer, dialect?: VariableDialect): string[] {
  const commands = new Set<string>();
  for (const s of allStrings(raw)) {
    for (const v of variablesIn(s, dialect)) if (v.ref.kind === 'command') commands.add(v.ref.command);
  }
  return [...commands];
}

/** Input ids the server uses, each once, in the order they appear (the order the user is asked in). */
export function referencedInputIds(raw: RawServer): string[] {
  const ids = new Set<string>();
  for (const s of allStrings(raw)) {
    for (const v of variablesIn(s)) if (v.ref.kind === 'input') ids.add(v.ref.id);
  }
  return [...ids];
}

/**
 * Resolves every variable of a server. Everything that can fail without the user is checked before any input is
 * asked, so nobody types a password for a server that cannot start anyway.
 */
export async function resolveServer(
  raw: RawServer,
  inputs: InputDefinition[],
  ctx: VariableContext,
): Promise<{ resolved: ResolvedServer; secrets: string[] }> {
  const declared = new Map(inputs.map((i) => [i.id, i]));
  const folderPath = ctx.folderPath;
  /** `${command:id}` values, once run (empty while only checking). */
  const commandValues = new Map<string, string>();
  const valueOf = (v: VariableOccurrence, answers?: Map<string, string>): string => {
    const ref = v.ref;
    switch (ref.kind) {
      case 'input':
        if (!declared.has(ref.id)) throw new VariableError(`Input "${ref.id}" used in ${v.text} is not declared in "inputs".`);
        return answers?.get(ref.id) ?? '';
      case 'env': {
        if (ctx.showReferences) return v.text;
        const value = ctx.env[ref.name];
        if (ctx.dialect !== 'mcpServers' || v.text.startsWith('${env:')) return value ?? '';
        // As a shell (and Claude Code) reads it: the default stands for an unset or empty variable; with none, an
        // unset one is an error, not an empty value.
        if (value !== undefined && (value !== '' || ref.fallback === undefined)) return value;
        if (ref.fallback !== undefined) return ref.fallback;
        throw new VariableError(`The environment variable ${ref.name} is not set, and ${v.text} gives no default (write \${${ref.name}:-default} for one).`);
      }
      case 'workspaceFolder':
      case 'workspaceFolderBasename':
        if (folderPath === undefined) {
          throw new VariableError(`${v.text} cannot be used here: this configuration does not belong to a workspace folder.`);
        }
        return ref.kind === 'workspaceFolder' ? folderPath : path.basename(folderPath);
      case 'config': {
        if (!ctx.setting) throw new VariableError(`${v.text} cannot be used here: there are no VS Code settings to read.`);
        const { value, fromWorkspace } = ctx.setting(ref.name);
        // The user's own setting shows as its reference, like an environment variable; a value the workspace set shows
        // itself, since the workspace decides it.
        if (ctx.showReferences && !fromWorkspace) return v.text;
        if (value === undefined || value === null) throw new VariableError(`${v.text}: the setting "${ref.name}" is not set.`);
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new VariableError(`${v.text}: the setting "${ref.name}" is not a text, a number or true/false.`);
        return String(value);
      }
      case 'command':
        // For display, the command is the value's source (its result may differ at each start).
        if (ctx.showReferences) return v.text;
        if (!ctx.runCommand) throw new VariableError(`${v.text} cannot be used here: there is no VS Code to run the command in.`);
        return commandValues.get(ref.command) ?? '';
      case 'userHome':
        return ctx.userHome;
      case 'pathSeparator':
        return ctx.pathSeparator;
      case 'unsupported':
        throw new VariableError(`Variable ${v.text} is not supported.`);
    }
  };
  const variables = (s: string) => variablesIn(s, ctx.dialect);
  for (const s of allStrings(raw)) for (const v of variables(s)) valueOf(v);
  const ids = referencedInputIds(raw);
  if (!ctx.runCommand && !ctx.showReferences) {
    const commandInput = ids.map((id) => declared.get(id)!).find((i) => i.type === 'command');
    if (commandInput) throw new VariableError(`Input "${commandInput.id}" runs a VS Code command: it cannot be used here, there is no VS Code to run it in.`);
  }

  const secrets = new Set<string>();
  const answers = new Map<string, string>();
  // One at a time: prompts are modal and the order must be predictable.
  for (const id of ids) {
    const input = declared.get(id)!;
    const value = input.type === 'command' ? (ctx.showReferences ? `\${command:${input.command}}` : await ctx.runCommand!(input.command, input.args)) : await ctx.resolveInput(input);
    if (value === undefined) throw new InputCancelledError(id);
    answers.set(id, value);
    if (input.type === 'promptString' && input.password) secrets.add(value);
  }
  // `${command:id}`: each command run once, in the order they appear.
  if (!ctx.showReferences) {
    for (const command of referencedCommands(raw, ctx.dialect)) {
      const value = await ctx.runCommand!(command, undefined);
      if (value === undefined) throw new InputCancelledError(`command:${command}`);
      commandValues.set(command, value);
    }
  }

  const substitute = (s: string): string => {
    let out = '';
    let last = 0;
    for (const v of variables(s)) {
      out += s.slice(last, v.index) + valueOf(v, answers);
      last = v.index + v.text.length;
    }
    return out + s.slice(last);
  };

  const resolved = mapStrings(raw, (value, role) => {
    const out = substitute(value);
    switch (role) {
      case 'path':
        // A relative path would otherwise depend on the extension host's own cwd, which means nothing to the user.
        return path.resolve(folderPath ?? ctx.userHome, out);
      case 'header':
        addHeaderSecrets(out, secrets);
        return out;
      case 'secret':
        secrets.add(out);
        return out;
      case 'plain':
        return out;
    }
  });
  secrets.delete('');
  return { resolved, secrets: [...secrets] };
}
