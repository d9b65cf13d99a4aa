// The trust question's text, rendered from the launch plan: everything the start will run or send, nothing clipped.
// Names are always shown; values too, except secrets by origin (password inputs, headers, auth secrets), and a
// `${env:…}` value shows as its reference. Variables not on the allow-list of harmless names each get a line of
// their own, first; the harmless ones follow on one line.
import { loopbackEntry } from '../config/sandboxConfig';
import { visibleText as v } from './serverText';
import type { LaunchPlan, PlannedDebug, PlannedInterpreter, PlannedRunnerFile, PlannedSandbox, PlannedVariable, RemoteLaunchPlan, StdioLaunchPlan } from '../config/launchPlan';

const quoteArg = (a: string) => v(a === '' || /[\s"'\\]/.test(a) ? JSON.stringify(a) : a);

function variableText(p: PlannedVariable): string {
  if (p.change === 'removed') return `${v(p.name)} (removed)`;
  return `${v(p.name)}=${v(p.shown ?? '')}`;
}

function describeStdio(plan: StdioLaunchPlan): string[] {
  const lines: string[] = [];
  lines.push(`Command: ${[plan.command, ...plan.argsShown].map(quoteArg).join(' ')}`);
  if (plan.executable === undefined) lines.push(`⚠ "${v(plan.command)}" is not found on the PATH it would get: it cannot start.`);
  else if (plan.executable !== plan.command) lines.push(`Runs the file: ${v(plan.executable)}`);
  if (plan.interpreter) lines.push(interpreterLine(plan.interpreter));
  lines.push(`Working directory: ${plan.cwd === undefined ? '(the host\'s own)' : v(plan.cwd)}`);
  for (const copy of plan.localCopies) lines.push(`⚠ Runs or configures from a local copy, not the registry's: ${v(copy)}`);
  for (const file of plan.runnerFiles ?? []) lines.push(...runnerFileLines(file));
  const risky = plan.changes.filter((c) => !c.harmless);
  const harmless = plan.changes.filter((c) => c.harmless);
  if (!plan.changes.length) lines.push('Environment: yours, unchanged.');
  else lines.push(`Environment: yours, with these ${plan.changes.length} difference${plan.changes.length === 1 ? '' : 's'}:`);
  for (const p of risky) lines.push(`⚠ ${variableText(p)} (${p.source}) — not known to be harmless: it may change what runs`);
  if (harmless.length) lines.push(`Harmless: ${harmless.map((p) => `${variableText(p)} (${p.source})`).join(', ')}`);
  if (plan.envFile) {
    lines.push(`Environment file: ${v(plan.envFile.path)} (its contents are part of what you trust)`);
    if (plan.envFile.error) lines.push(`⚠ ${v(plan.envFile.error)}`);
  }
  lines.push(...describeSandbox(plan.sandbox));
  lines.push(...describeDebug(plan.debug));
  return lines;
}

/** The program a script's `#!` line starts it with: marked when it is not the one your own PATH finds. */
function interpreterLine(i: PlannedInterpreter): string {
  const line = `Its first line "${v(i.line)}"`;
  if (i.path === undefined) return `⚠ ${line} names ${v(i.program)}, which is not found on the PATH it would get: it cannot start.`;
  return i.differs ? `⚠ ${line} starts it with ${v(i.path)}, found through its own PATH and working directory, not the one yours finds` : `${line} starts it with: ${v(i.path)}`;
}

/** A runner's project settings, every setting shown; or the working directory's module that `-m` imports. */
function runnerFileLines(file: PlannedRunnerFile): string[] {
  const note = file.note ? ` (${v(file.note)})` : '';
  if (file.kind === 'imports') return [`⚠ ${v(file.reader)} imports from its working directory ${v(file.path)} first, before installed modules: ${file.settings.map(v).join(', ')} (trusted as they are now: a change is asked about again)`];
  if (file.kind === 'module') return [`⚠ ${v(file.reader)} -m ${v(file.module ?? '')} imports the working directory's copy, not an installed one: ${v(file.path)}${note}`];
  const lines = [`⚠ ${v(file.reader)} reads its settings from ${v(file.path)}${note}: ${file.settings.length ? file.settings.map(v).join(' · ') : '(sets nothing)'}`];
  if (file.runs) lines.push(`⚠ ${v(file.reader)} runs the file ${v(file.runs.path)} that these settings name (trusted as it is now: a change is asked about again)`);
  return lines;
}

/** `dev.debug`: under which debugger it starts, and where that debugger meets it; or why it starts without one. */
export function describeDebug(debug: PlannedDebug | undefined): string[] {
  if (!debug) return [];
  if (debug.unavailable !== undefined) return [`⚠ "dev.debug" (${debug.type}) is set, but it starts without a debugger: ${debug.unavailable}`];
  const at = `${debug.host}:${debug.port}`;
  return [debug.type === 'node'
    ? `Under a debugger ("dev.debug": node): its inspector listens on ${at}, it waits at its first line until VS Code's debugger attaches, which can then pause it and run code in it`
    : `Under a debugger ("dev.debug": debugpy): debugpy connects to VS Code's debugger on ${at} and waits for it, which can then pause it and run code in it`];
}

/** A path as the question shows it: under the home folder as `~/…` (shorter, and no less exact). */
const shownPath = (p: string, home: string): string => v(p === home ? '~' : p.startsWith(`${home}/`) ? `~${p.slice(home.length)}` : p);
const joined = (items: readonly string[]) => items.join(', ');

/** The network line: the hosts it may reach, said apart from this machine's ports, and "no network" when there is none. */
function networkLine(sandbox: PlannedSandbox): string {
  const local = sandbox.domains.map((d) => loopbackEntry(d)).filter((l): l is { port: number | undefined } => !!l);
  const hosts = sandbox.domains.filter((d) => !loopbackEntry(d)).map(v);
  const never = sandbox.deniedDomains.length ? `, never ${joined(sandbox.deniedDomains.map(v))}` : '';
  if (!hosts.length && !local.length) return 'Confined: no network';
  const ports = local.some((l) => l.port === undefined) ? 'every port' : `port${local.length === 1 ? '' : 's'} ${joined(local.map((l) => String(l.port)))}`;
  const machine = local.length ? `may connect to ${ports} on this machine` : 'no port of this machine';
  return hosts.length ? `Confined: network only to ${joined(hosts)}${never}; ${machine}` : `Confined: no other network; ${machine}`;
}

/** What a confined start may do, in plain words (nothing for an unconfined one: the question always was about all your rights). */
export function describeSandbox(sandbox: PlannedSandbox | undefined): string[] {
  if (!sandbox) return [];
  const at = (p: string) => shownPath(p, sandbox.home);
  const hiddenMore = sandbox.hidden.filter((h) => h !== sandbox.home);
  const reads = sandbox.readable.length ? `reads the system and ${joined(sandbox.readable.map(at))}, not the rest of your home folder` : 'reads the system, not your home folder';
  const own = [...(sandbox.cache ? ['its own package cache'] : []), 'a temporary folder'];
  const writes = sandbox.writable.length ? `writes only ${joined(sandbox.writable.map(at))} (never git, editor or shell settings there${sandbox.runByOthers?.length ? ', nor what other servers run' : ''}), ${own.join(' and ')}` : `writes only ${own.join(' and ')}`;
  return [
    `Confined: ${reads}${hiddenMore.length ? `; never ${joined(hiddenMore.map(at))}` : ''}`,
    `Confined: ${writes}${sandbox.notWritable.length ? `; never ${joined(sandbox.notWritable.map(at))}` : ''}`,
    networkLine(sandbox),
  ];
}

/** What runs and where, in two lines: the top of the question (the rest follows in full). */
export function describeRunsWhere(plan: LaunchPlan): string {
  if (plan.kind === 'remote') {
    const helper = plan.headersHelper;
    return helper ? `URL: ${v(plan.url)}\n⚠ Runs on this machine for its headers: ${helper.command.map(quoteArg).join(' ')} (in ${v(helper.cwd)})` : `URL: ${v(plan.url)}`;
  }
  return [`Command: ${[plan.command, ...plan.argsShown].map(quoteArg).join(' ')}`, `Working directory: ${plan.cwd === undefined ? "(the host's own)" : v(plan.cwd)}`].join('\n');
}

function describeRemote(plan: RemoteLaunchPlan): string[] {
  const lines = [`URL: ${v(plan.url)} (${plan.transport === 'sse' ? 'SSE' : 'Streamable HTTP'})`];
  if (plan.socket) lines.push(`Through the ${plan.socket.kind === 'pipe' ? 'named pipe' : 'socket'} ${v(plan.socket.socketPath)} on this machine, asking for ${v(plan.socket.httpPath)}`);
  if (plan.headers.length) lines.push(`Headers sent to it: ${plan.headers.map((h) => `${v(h.name)}: ${v(h.shown)}`).join('; ')}`);
  const helper = plan.headersHelper;
  if (helper) {
    lines.push(`⚠ Runs on this machine before each connection ("headersHelper"): ${helper.command.map(quoteArg).join(' ')}`);
    if (helper.realPath !== helper.command[0]) lines.push(`Runs the file: ${v(helper.realPath)}${helper.realPath !== helper.executable ? ` (${v(helper.executable)} links to it)` : ''}`);
    if (helper.files.length) lines.push(`Trusted as they are now (a change is asked about again): ${helper.files.map((f) => v(f.path)).join(', ')}`);
    lines.push(`Working directory: ${v(helper.cwd)}`);
    lines.push(`Sends the headers it prints to ${plan.socket ? `the server on ${v(plan.socket.socketPath)}` : v(new URL(plan.url).origin)}, kept secret`);
  }
  const { auth } = plan;
  lines.push(`Sign-in: ${auth.type}${auth.configured ? '' : ' (none configured)'}${auth.facts.length ? `, ${auth.facts.map(v).join(', ')}` : ''}`);
  for (const e of auth.endpoints.slice(1)) lines.push(`Contacts ${v(e.role)}: ${v(e.url)}`);
  for (const s of auth.secrets) lines.push(`Sends the ${s.field} ${v(s.shown)} to ${v(s.sentTo)}`);
  for (const w of auth.warnings) lines.push(`⚠ ${v(w)}`);
  return lines;
}

export function describeLaunchPlan(plan: LaunchPlan, storedInputs: readonly string[] = []): string {
  const lines = plan.kind === 'stdio' ? describeStdio(plan) : describeRemote(plan);
  if (storedInputs.length) lines.push(`It receives the stored values of the inputs ${storedInputs.map(v).join(', ')} (entered before, maybe for another server).`);
  return lines.join('\n');
}

/** One line for a pick of servers (the whole question was shown before it): what runs, and how much it changes. */
export function summarizeLaunchPlan(plan: LaunchPlan): string {
  if (plan.kind === 'remote') return `${v(plan.url)} · ${plan.headers.length} header${plan.headers.length === 1 ? '' : 's'}${plan.headersHelper ? ` · ⚠ runs ${quoteArg(plan.headersHelper.command[0])} for more` : ''} · sign-in: ${plan.auth.type}${plan.auth.secrets.length ? `, ${plan.auth.secrets.length} secret${plan.auth.secrets.length === 1 ? '' : 's'} sent` : ''}`;
  const risky = plan.changes.filter((c) => !c.harmless).length;
  const parts = [[plan.command, ...plan.argsShown].map(quoteArg).join(' '), `${plan.changes.length} environment difference${plan.changes.length === 1 ? '' : 's'}${risky ? ` (⚠ ${risky} not known to be harmless)` : ''}`];
  if (plan.debug && plan.debug.unavailable === undefined) parts.push(`under the ${plan.debug.type} debugger`);
  if (plan.sandbox) parts.push(`confined (${plan.sandbox.writable.length} writable, ${plan.sandbox.domains.length} host${plan.sandbox.domains.length === 1 ? '' : 's'})`);
  if (plan.localCopies.length) parts.push(`⚠ ${plan.localCopies.length} local cop${plan.localCopies.length === 1 ? 'y' : 'ies'}`);
  const files = plan.runnerFiles?.length ?? 0;
  if (files) parts.push(`⚠ ${files} project file${files === 1 ? '' : 's'} it reads`);
  return parts.join(' · ');
}
