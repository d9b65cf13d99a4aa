// Builds the launch plan (config/launchPlan.ts) of one start: the executable as PATH finds it, the whole environment
// and what differs from the host's, local copies a runner would prefer, a remote server's whole sign-in. Part of the
// launch bundle: the host asks for a plan through its planLaunch port.
import * as fs from 'fs';
import * as path from 'path';
import { isAllowedAuthEndpoint } from '../../config/allowedUrls';
import { SOCKET_ORIGIN, socketAddress } from '../../config/socketAddress.lazy';
import { MASK, type LaunchPlan, type LaunchPlanSource, type PlanLaunch, type PlannedEndpoint, type PlannedHeadersHelper, type PlannedVariable, type RemoteLaunchPlan, type RemotePlanSource, type StdioLaunchPlan, type StdioPlanSource } from '../../config/launchPlan';
import { isValidVariableName } from '../../config/variableName';
import { emptySandboxConfig } from '../../config/sandboxConfig';
import { resolveWindowsCommand } from './commandPath.lazy';
import { localRunnerCopies } from './localRunnerCopies.lazy';
import { runnerFiles } from './runnerSettings.lazy';
import { scriptInterpreter } from './scriptInterpreter.lazy';
import { planSandbox } from './sandboxPolicy.lazy';
import { planDebug } from './debugPlan.lazy';
import * as os from 'os';
import { filesRunByOthers } from './filesRunByOthers.lazy';
import { createHash } from 'crypto';
import { inside } from './sandboxProtection.lazy';

import { LaunchPlanError } from './launchPlanError.lazy';
export { LaunchPlanError };

import { isHarmlessVariable } from '../../config/harmlessVariables';
export { isHarmlessVariable };


const executableFile = (file: string): boolean => {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Where the system would find `command`, as execvp does: a name with a slash is taken relative to the working
 * directory; a bare name is looked up in PATH's entries in order, relative entries (and empty ones) against the
 * working directory. Windows: the absolute entries of PATH only, with PATHEXT (see resolveWindowsCommand).
 */
export function findExecutable(command: string, env: Record<string, string>, cwd: string | undefined, platform: NodeJS.Platform = process.platform, isExecutable = executableFile): string | undefined {
  if (platform === 'win32') {
    const found = resolveWindowsCommand(command, { env, isFile: isExecutable });
    return found && path.win32.resolve(cwd ?? '', found);
  }
  const base = cwd ?? process.cwd();
  if (command.includes('/')) return path.posix.resolve(base, command);
  if (!command) return undefined;
  const pathValue = Object.hasOwn(env, 'PATH') ? env.PATH : '';
  for (const entry of pathValue.split(':')) {
    const file = path.posix.resolve(base, entry || '.', command);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

/** The environment a stdio server gets: the host's, then the env file's variables, then `env` (null removes). */
/** process.env as read in this turn of the event loop (the plans of servers starting together share one read). */
let processEnvironment: Record<string, string> | undefined;

/** `environment`'s defined variables in a plain object, never changed by its readers; process.env read once a turn. */
function plainEnvironment(environment: Record<string, string | undefined>): Record<string, string> {
  const copy = (from: Record<string, string | undefined>) => {
    const to: Record<string, string> = {};
    for (const [k, v] of Object.entries(from)) if (v !== undefined) to[k] = v;
    return to;
  };
  if (environment !== process.env) return copy(environment);
  if (!processEnvironment) {
    processEnvironment = copy(process.env);
    setImmediate(() => (processEnvironment = undefined));
  }
  return processEnvironment;
}

export function planEnvironment(host: Record<string, string | undefined>, fromFile: Record<string, string>, configured: Record<string, string | null>): { env: Record<string, string>; sourceOf: Map<string, 'env' | 'env file'>; pathKey: string } {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(host)) if (v !== undefined) env[k] = v;
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  const sourceOf = new Map<string, 'env' | 'env file'>();
  const apply = (k: string, v: string | null, source: 'env' | 'env file') => {
    const key = k.toUpperCase() === 'PATH' ? pathKey : k;
    sourceOf.set(key, source);
    if (v === null) delete env[key];
    // As VS Code does: a PATH in the config extends the inherited one instead of replacing it.
    else if (key === pathKey && env[pathKey] && !v.includes(env[pathKey])) env[key] = `${v}${path.delimiter}${env[pathKey]}`;
    else env[key] = v;
  };
  for (const [k, v] of Object.entries(fromFile)) apply(k, v, 'env file');
  for (const [k, v] of Object.entries(configured)) apply(k, v, 'env');
  return { env, sourceOf, pathKey };
}

export function buildStdioPlan(source: StdioPlanSource): StdioLaunchPlan {
  const { resolved, shown } = source;
  // Read once into a plain object: the host's environment is usually process.env, whose every read and listing goes
  // through Node's accessor (a plan takes three passes over it); the servers starting in one turn of the event loop
  // share that read.
  const hostEnv = plainEnvironment(source.hostEnv);
  const fromFile = source.envFile?.variables ?? {};
  for (const name of [...Object.keys(resolved.env), ...Object.keys(fromFile)]) {
    if (!isValidVariableName(name)) throw new LaunchPlanError(`The environment variable name ${JSON.stringify(name)} is not a valid name (it holds "=" or a control character): the process would see another variable.`);
  }
  // A server that sets no variable gets the host's environment as read, the very object the plans of this turn share
  // (nobody changes it): no copy, and no comparison of a hundred variables with themselves, per server.
  const ownsNothing = !Object.keys(resolved.env).length && !Object.keys(fromFile).length;
  const { env, sourceOf, pathKey } = ownsNothing ? { env: hostEnv, sourceOf: new Map<string, 'env' | 'env file'>(), pathKey: 'PATH' } : planEnvironment(hostEnv, fromFile, resolved.env);
  const home = source.home ?? hostEnv.HOME ?? os.homedir();
  // A server of no folder (the user's own file) runs in the home folder, never in whatever directory the editor was
  // started from (a cloned repository, whose node_modules npx would run): an explicit directory, with its local copies.
  // (A confined one keeps its own rules: the home folder is hidden from it and never writable.)
  const cwd = resolved.cwd ?? source.scope.folderPath ?? (resolved.sandboxEnabled ? undefined : home);
  const changes: PlannedVariable[] = [];
  const names = ownsNothing ? [] : new Set([...Object.keys(env), ...Object.keys(hostEnv)]);
  for (const name of [...names].sort()) {
    const before = hostEnv[name];
    const after = env[name];
    if (before === after) continue;
    const from = sourceOf.get(name) ?? 'env';
    const change = after === undefined ? 'removed' : before === undefined ? 'added' : 'changed';
    changes.push({ name, change, source: from, shown: after === undefined ? undefined : shownVariable(name, after, from, shown.env, fromFile, pathKey, before), harmless: isHarmlessVariable(name) });
  }
  // `dev.debug`: the debugger's arguments first (and with `debugpyPath`, debugpy as the command).
  const debugged = resolved.dev?.debug ? planDebug(resolved.dev.debug, resolved.command, source.debuggers, resolved.sandboxEnabled) : undefined;
  const command = debugged?.command ?? resolved.command;
  const added = debugged?.added ?? [];
  const executable = findExecutable(command, env, cwd, source.platform, source.isExecutable);
  const sandbox = resolved.sandboxEnabled
    ? planSandbox({
        config: resolved.sandbox ?? emptySandboxConfig(),
        command,
        executable,
        cwd,
        folderPath: source.scope.folderPath,
        home,
        storage: source.sandboxStorage ?? path.join(home, '.cache', 'mcp-host'),
        identity: `${source.scope.configPath ?? source.scope.folderPath ?? 'user'}\0${source.name ?? command}`,
        pathValue: hostEnv.PATH,
        env: hostEnv,
      })
    : undefined;
  const projectFiles = runnerFiles(resolved.command, resolved.args, cwd, env, home, hostEnv);
  const platform = source.platform ?? process.platform;
  const interpreter = scriptInterpreter(executable, platform, (program, own) => findExecutable(program, own ? env : hostEnv, cwd, platform, source.isExecutable));
  const confined = sandbox && source.runByOthers?.length ? { ...sandbox, runByOthers: source.runByOthers } : sandbox;
  return {
    kind: 'stdio',
    command,
    executable,
    args: [...added, ...resolved.args],
    argsShown: [...added, ...shown.args],
    cwd,
    env,
    changes,
    ...(source.envFile ? { envFile: { path: source.envFile.path, ...(source.envFile.error ? { error: source.envFile.error } : {}) } } : {}),
    localCopies: localRunnerCopies(resolved.command, resolved.args, cwd),
    ...(projectFiles.length ? { runnerFiles: projectFiles } : {}),
    ...(interpreter ? { interpreter } : {}),
    ...(confined ? { sandbox: confined } : {}),
    ...(debugged ? { debug: debugged.debug } : {}),
  };
}

function shownVariable(name: string, value: string, from: 'env' | 'env file', shownEnv: Record<string, string | null>, fromFile: Record<string, string>, pathKey: string, before: string | undefined): string {
  const configuredKey = Object.keys(shownEnv).find((k) => (name === pathKey ? k.toUpperCase() === 'PATH' : k === name));
  const written = from === 'env' && configuredKey !== undefined ? shownEnv[configuredKey] : fromFile[name];
  const base = written ?? value;
  // The inherited PATH the configured one extends is the user's own: named, not repeated.
  if (name === pathKey && before && value.endsWith(`${path.delimiter}${before}`) && !base.endsWith(before)) return `${base}${path.delimiter}(your PATH)`;
  return base;
}

/** A value as written when it only names where it comes from; literal text (which may be a key) masked. */
export function maskedTemplate(value: string): string {
  // The auth scheme says what kind of credential goes along; it is no secret.
  const scheme = /^(Bearer|Basic|Token|Bot)\s+/i.exec(value)?.[0] ?? '';
  return scheme + value.slice(scheme.length).replace(/\$\{[^{}]*\}|((?:(?!\$\{)[^])+)/g, (whole, literal: string | undefined) => (literal === undefined ? whole : literal.trim() ? MASK : literal));
}

/**
 * A `headersHelper`'s plan: the file it runs (looked up as a command is, so the question names the file), in the
 * configuration's folder (the home folder for the user's files), as Claude Code runs it.
 */
function planHeadersHelper(written: readonly string[], argv: readonly string[], source: RemotePlanSource): PlannedHeadersHelper {
  const env = plainEnvironment(source.hostEnv ?? process.env);
  const folder = source.scope?.folderPath;
  const cwd = folder ?? env.HOME ?? os.homedir();
  const [program, ...args] = argv;
  const executable = program ? findExecutable(program, env, cwd, source.platform, source.isExecutable) : undefined;
  if (executable === undefined) throw new LaunchPlanError(`The "headersHelper" program ${JSON.stringify(program ?? '')} is not found on the PATH: the server cannot get its headers.`);
  const realPath = realPathOf(executable);
  // What the repository itself supplies is trusted by its contents: the program, and any argument naming a file of it.
  const candidates = [realPath, ...args.filter((a) => a && !a.startsWith('-')).map((a) => realPathOf(path.resolve(cwd, a)))];
  const files = folder ? [...new Set(candidates)].filter((file) => inside(realPathOf(folder), file) && isRegularFile(file)).slice(0, 8).map((file) => ({ path: file, sha256: digestOf(file) })) : [];
  return { command: written, executable, realPath, args, cwd, files };
}

const realPathOf = (file: string): string => {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
};

const isRegularFile = (file: string): boolean => {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** A file the question vouches for by its contents: read whole (a script, or a program the repository ships). */
const MAX_DIGESTED_BYTES = 64 * 1024 * 1024;
function digestOf(file: string): string {
  if (fs.statSync(file).size > MAX_DIGESTED_BYTES) throw new LaunchPlanError(`The "headersHelper" file ${file} is over ${MAX_DIGESTED_BYTES / 1024 / 1024} MB: too large to be vouched for by its contents.`);
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

export function buildRemotePlan(source: RemotePlanSource): RemoteLaunchPlan {
  const { resolved, raw } = source;
  const url = resolved.url;
  // A socket's server (`unix:`, `pipe:`): its sign-in is judged as a server on this machine's, which it is.
  const socket = socketAddress(url);
  if (!socket && !/^https?:/i.test(url)) throw new LaunchPlanError(`"${url}" names no socket or named pipe: write unix:///path/to/server.sock#/mcp or pipe:///name#/mcp.`);
  const httpUrl = socket ? `${SOCKET_ORIGIN}${socket.httpPath}` : url;
  const origin = socket ? `the server on ${socket.socketPath}` : new URL(url).origin;
  const headers = Object.keys(raw.headers).map((name) => ({ name, shown: maskedTemplate(raw.headers[name]) }));
  const auth = raw.auth;
  const type = auth?.type ?? 'oauth';
  const facts: string[] = [];
  const endpoints: PlannedEndpoint[] = [{ role: 'the MCP server', url }];
  const secrets: { field: string; shown: string; sentTo: string }[] = [];
  const warnings: string[] = [];
  const r = resolved.auth;
  const checkEndpoint = (what: string, value: string | undefined) => {
    if (value !== undefined && !isAllowedAuthEndpoint(value, httpUrl)) throw new LaunchPlanError(`"${what}" (${value}) must be an https URL (http only on this machine, for a server on this machine).`);
  };
  checkEndpoint('auth.issuer', r?.issuer);
  checkEndpoint('auth.clientMetadataUrl', r?.clientMetadataUrl);
  checkEndpoint('auth.idp.issuer', r?.idp?.issuer);
  checkEndpoint('auth.idp.tokenEndpoint', r?.idp?.tokenEndpoint);
  const authServer = r?.issuer ? `the authorization server ${r.issuer}` : `the authorization server that ${origin}'s metadata names`;
  endpoints.push({ role: `its metadata (protected resource and authorization server discovery)`, url: `${origin}/.well-known/…` });
  if (r?.issuer) endpoints.push({ role: 'the authorization server (issuer)', url: r.issuer });
  else if (auth) warnings.push(`No "issuer" is set: the sign-in goes to whichever authorization server ${origin} names.`);
  if (r?.clientId !== undefined) facts.push(`client id ${r.clientId}`);
  if (r?.scope !== undefined) facts.push(`scope ${r.scope}`);
  if (r?.algorithm !== undefined) facts.push(`algorithm ${r.algorithm}`);
  if (r?.dpop) facts.push('DPoP-bound tokens');
  if (r?.clientMetadataUrl !== undefined) endpoints.push({ role: 'its client metadata document (sent as the client id)', url: r.clientMetadataUrl });
  if (auth?.clientSecret !== undefined) secrets.push({ field: 'client secret', shown: maskedTemplate(auth.clientSecret), sentTo: `the token endpoint of ${authServer}` });
  if (auth?.privateKey !== undefined) secrets.push({ field: 'private key', shown: maskedTemplate(auth.privateKey), sentTo: `nowhere (it signs a client assertion for the token endpoint of ${authServer})` });
  if (auth?.assertion !== undefined) secrets.push({ field: 'JWT-bearer assertion', shown: maskedTemplate(auth.assertion), sentTo: `the token endpoint of ${authServer}` });
  if (r?.assertionFile !== undefined) secrets.push({ field: 'JWT-bearer assertion (read at each token request) in the file', shown: r.assertionFile, sentTo: `the token endpoint of ${authServer}` });
  if (r?.assertionCommand) {
    warnings.push(`Runs ${JSON.stringify(r.assertionCommand)} on this machine at each token request, for the JWT-bearer assertion.`);
    secrets.push({ field: 'JWT-bearer assertion printed by the command', shown: r.assertionCommand.join(' '), sentTo: `the token endpoint of ${authServer}` });
  }
  if (r?.idp && auth?.idp) {
    const idp = r.idp.tokenEndpoint ?? `the token endpoint of ${r.idp.issuer}`;
    if (r.idp.issuer) endpoints.push({ role: "the enterprise identity provider's issuer", url: r.idp.issuer });
    if (r.idp.tokenEndpoint) endpoints.push({ role: "the enterprise identity provider's token endpoint", url: r.idp.tokenEndpoint });
    facts.push(`identity provider client id ${r.idp.clientId}`);
    secrets.push({ field: 'ID token', shown: maskedTemplate(auth.idp.idToken), sentTo: idp });
    if (auth.idp.clientSecret !== undefined) secrets.push({ field: 'identity provider client secret', shown: maskedTemplate(auth.idp.clientSecret), sentTo: idp });
  }
  if (type === 'oauth') facts.push('a sign-in in your browser when the server asks for one');
  // Shown as the question shows values (a workspace setting's value, an env reference): what runs is what was shown.
  const written = (source.shown?.type !== 'stdio' ? source.shown?.headersHelper : undefined) ?? raw.headersHelper;
  const headersHelper = written && resolved.headersHelper ? planHeadersHelper(written, resolved.headersHelper, source) : undefined;
  return { kind: 'remote', transport: resolved.type, url, ...(socket ? { socket } : {}), headers, auth: { type, configured: auth !== undefined, facts, endpoints, secrets, warnings }, ...(headersHelper ? { headersHelper } : {}), resolved };
}

/**
 * The plan of one start; throws LaunchPlanError for a definition that must not run. What other servers run is looked
 * for only for a confined one (it protects them): each of 50 starts went through the other 49 definitions for nothing.
 */
export function buildLaunchPlan(source: LaunchPlanSource): LaunchPlan {
  const { resolved, shown, raw } = source;
  if (resolved.type === 'stdio') {
    if (shown.type !== 'stdio') throw new LaunchPlanError('The displayed definition differs from the resolved one.');
    return buildStdioPlan({ scope: source.scope, resolved, shown, envFile: source.envFile, hostEnv: source.hostEnv, debuggers: source.debuggers, name: source.name, sandboxStorage: source.sandboxStorage, runByOthers: resolved.sandboxEnabled && source.otherServers ? filesRunByOthers(source.otherServers, os.homedir()) : undefined });
  }
  if (raw.type === 'stdio') throw new LaunchPlanError('The written definition differs from the resolved one.');
  return buildRemotePlan({ resolved, raw, shown, scope: source.scope, hostEnv: source.hostEnv });
}

export const planLaunch: PlanLaunch = (source) => {
  try {
    return { ok: true, plan: buildLaunchPlan(source) };
  } catch (e) {
    if (e instanceof LaunchPlanError) return { ok: false, message: e.message };
    throw e;
  }
};
