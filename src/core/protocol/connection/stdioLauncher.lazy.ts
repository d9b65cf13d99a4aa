// A stdio server: a child process with the user's whole environment in a process group of its own, its stderr read
// line by line, and on stop the whole group and tree ended (stdin closed, then SIGTERM, then SIGKILL), so an `npx`
// wrapper's child, or a child forked late, never lingers.
import type { ResolvedStdioServer, ServerDefinition } from '../../config/serverDefinition';
import type { ServerLog } from '../../common/log';
import { groupAlive, isAlive, killTree, listDescendants, markedProcesses, signalGroup, waitUntil } from './processTree.lazy';
import type { ConnectionOptions, Handshake, Launcher } from './launcher.lazy';
import type { DebuggerAttachment } from '../../host/connectionPort';
import { attachDebugger } from './attachDebugger.lazy';
import { refusedToAsk, StartError } from './startErrors.lazy';
import type { StdioLaunchPlan } from '../../config/launchPlan';
import { buildStdioPlan, planEnvironment } from '../launch/launchPlanner.lazy';
import { StartedProcesses } from './startedProcesses.lazy';
import { StdioTransport } from './stdioTransport.lazy';
import { planProblem, processCommand, RUN_MARK_VARIABLE, ServerProcess, type StartedProcess } from '../launch/serverProcess.lazy';
import { confinedCommand, sandboxSupport, type ConfinedCommand } from '../launch/sandboxRuntime.lazy';
import { DenialLog, denialOf, MAX_CHANNEL_LINE_BYTES, withRule } from '../launch/sandboxDenials.lazy';
import { LineSplitter } from './lineSplitter.lazy';
import { describeDenial, type SandboxDenial } from '../../config/sandboxDenial';
import { KEPT_OUTPUT_LINE_CHARS, KEPT_OUTPUT_LINES } from '../../presentation/crashOutput';

/**
 * The largest single message a stdio server may send. The SDK's default (10 MB) closes the connection on a 10 MB
 * resource (its JSON, and a blob's base64, are bigger than the bytes); this still stops a server that never ends a line.
 */
export const MAX_STDIO_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The environment a stdio server gets: the user's whole environment, then the env file's variables, then `env` (null removes). */
export function buildStdioEnvironment(
  base: Record<string, string | undefined>,
  configured: Record<string, string | null>,
  envFileVariables: Record<string, string> = {},
): Record<string, string> {
  return planEnvironment(base, envFileVariables, configured).env;
}

/** The plan of a definition prepared without a trust question: the same derivation, args shown as written. */
function planWithoutQuestion(definition: ServerDefinition, server: ResolvedStdioServer, environment: Record<string, string | undefined>): StdioLaunchPlan {
  const envFile = definition.envFile;
  const shown = definition.raw.type === 'stdio' ? definition.raw : server;
  return buildStdioPlan({
    scope: definition.scope,
    resolved: server,
    shown: { ...server, args: shown.args.length === server.args.length ? shown.args : server.args, env: server.env },
    envFile: envFile && server.envFile ? { path: server.envFile, ...('error' in envFile ? { error: envFile.error } : { variables: envFile.variables }) } : undefined,
    hostEnv: environment,
  });
}

/** The longest stderr line kept; a longer one is cut with a marker (servers that log to stderr can log anything). */
export const MAX_STDERR_LINE_BYTES = 1024 * 1024;

export class StdioLauncher implements Launcher {
  private transport: StdioTransport | undefined;
  spawnedPid: number | undefined;
  readonly recentOutput: string[] = [];
  /** How the process ended, in words: its exit code or the signal that ended it. */
  get exitMessage(): string {
    const status = this.transport?.exitStatus;
    if (status?.signal) return `The server process was ended by ${status.signal}`;
    return typeof status?.code === 'number' ? `The server process exited with exit code ${status.code}` : 'The server process exited';
  }
  private readonly started = new StartedProcesses();
  /** A confined start's runtime command (its placeholders held and private temp dir, let go on stop). */
  private confined: ConfinedCommand | undefined;
  /** What the sandbox refused in this run, each once. */
  readonly denials = new DenialLog();
  /** `dev.debug`: the editor's debugger attached to this run. */
  private debugger: DebuggerAttachment | undefined;
  /** Why this confined plan runs unconfined (the machine cannot confine, and the user chose to); undefined: it does not. */
  private unconfinedBy: string | undefined;

  constructor(
    private readonly definition: ServerDefinition,
    private readonly server: ResolvedStdioServer,
    private readonly log: ServerLog,
    private readonly options: Pick<ConnectionOptions, 'environment' | 'shutdownStageMs' | 'runUnconfined' | 'attachDebugger' | 'refuseToAsk'>,
    private readonly onDenial?: (denial: SandboxDenial) => void,
    /** The process of this definition's plan, started before the host bundle loaded: taken by the first transport. */
    private early?: StartedProcess,
  ) {}

  /** Where a confined plan cannot be confined: undefined when it can, the reason when the user chose to run it unconfined; else the start fails. */
  private async unconfinedChoice(): Promise<string | undefined> {
    const { plan } = this.definition;
    if (plan?.kind !== 'stdio' ? !this.server.sandboxEnabled : !plan.sandbox) return undefined;
    const support = sandboxSupport(process.platform, this.options.environment);
    if (support.ok) return undefined;
    if (this.options.refuseToAsk?.()) throw refusedToAsk('whether to run it unconfined');
    if (await this.options.runUnconfined?.(this.definition, support.reason)) return support.reason;
    throw new StartError(`${UNCONFINABLE} ${support.reason}`, false);
  }

  /** Whether this run is confined (false before it starts, and when the user chose to run it unconfined). */
  get isConfined(): boolean {
    return this.confined !== undefined;
  }

  get pid(): number | undefined {
    return this.transport?.pid ?? this.early?.process.pid;
  }

  secrets(): readonly string[] {
    return [];
  }

  async connect(handshake: Handshake): Promise<void> {
    this.unconfinedBy = await this.unconfinedChoice();
    const plan = this.plan();
    checkPlan(plan);
    this.debugger = await attachDebugger(plan, this.definition, this.log, this.options.attachDebugger);
    const transport = (this.transport = this.createTransport(plan));
    await handshake(transport, () => {
      this.spawnedPid = transport.pid;
      if (transport.pid !== undefined) this.started.watch(transport.pid);
    });
  }

  /** The plan the user trusted, never the definition again; one built here only where nobody was asked (tests, CLI). */
  private plan(): StdioLaunchPlan {
    return this.definition.plan?.kind === 'stdio' ? this.definition.plan : planWithoutQuestion(this.definition, this.server, this.options.environment);
  }

  private createTransport(plan: StdioLaunchPlan & { executable: string }): StdioTransport {
    // As shown in the question: values from inputs that are passwords stay out of the log.
    this.log.info(`Starting: ${[plan.command, ...plan.argsShown].join(' ')}${plan.executable !== plan.command ? ` [${plan.executable}]` : ''}${plan.cwd ? ` (in ${plan.cwd})` : ''}`);
    const confined = plan.sandbox ? this.confine(plan) : undefined;
    const early = this.takeEarly(plan, confined);
    return new StdioTransport({
      process: () => early ?? (confined ? this.confinedProcess(plan, confined) : new ServerProcess(processCommand(plan))),
      maxMessageBytes: MAX_STDIO_MESSAGE_BYTES,
      maxStderrLineBytes: MAX_STDERR_LINE_BYTES,
      onStderrLine: (line, cut) => this.onStderrLine(cut ? `${line} … [line cut at ${MAX_STDERR_LINE_BYTES / 1024 / 1024} MB]` : line),
    });
  }

  /** The process started early, when it was started from this very plan and runs as this start would run it. */
  private takeEarly(plan: StdioLaunchPlan, confined: ConfinedCommand | undefined): ServerProcess | undefined {
    const early = this.early;
    this.early = undefined;
    if (!early) return undefined;
    if (early.plan === plan && !confined && !this.debugger) return early.process;
    early.process.kill();
    return undefined;
  }

  /**
   * The runtime's command for a confined plan. Where this machine cannot confine, the start fails with the reason,
   * unless the user chose to run this server unconfined (never silently).
   */
  private confine(plan: StdioLaunchPlan & { executable: string }): ConfinedCommand | undefined {
    if (this.unconfinedBy !== undefined) {
      this.log.warn(`Running unconfined, as you chose: ${this.unconfinedBy}`);
      return undefined;
    }
    this.confined = confinedCommand(plan.sandbox!, plan.command, plan.executable, plan.args, plan.env, this.options.environment, plan.cwd);
    for (const note of this.confined.notes) this.log.warn(note);
    const own = [...(plan.sandbox!.cache ? [`${plan.sandbox!.cache} (its own package cache)`] : []), `${this.confined.tempDir} (its temp dir)`];
    this.log.info(`Confined (sandbox runtime): writes ${[...plan.sandbox!.writable, ...own].join(', ')}; network ${plan.sandbox!.domains.join(', ') || 'none'}`);
    return this.confined;
  }

  /**
   * A confined process: the runtime's denials are read from its own channel (fd 3), never from what the server prints;
   * its placeholders and temp dir go once it has exited, whether it ran or the runtime refused to start.
   */
  private confinedProcess(plan: StdioLaunchPlan, confined: ConfinedCommand): ServerProcess {
    const server = new ServerProcess({ command: confined.command, args: confined.args, env: confined.env, cwd: plan.cwd, channel: true, input: confined.settings });
    void server.exited.then(() => this.disposeConfined(confined));
    const channel = server.child.stdio[3];
    const lines = new LineSplitter({ maxLineBytes: MAX_CHANNEL_LINE_BYTES, onLine: (line) => this.onDenialLine(plan, line.toString('utf8')), onOverflow: () => undefined });
    channel?.on('data', (chunk: Buffer) => lines.push(chunk));
    channel?.on('error', () => undefined);
    return server;
  }

  private onDenialLine(plan: StdioLaunchPlan, line: string) {
    const found = denialOf(line);
    if (!found || !plan.sandbox) return;
    const denial = withRule(found, plan.sandbox, this.options.environment.PATH, undefined, this.options.environment);
    if (!this.denials.add(denial)) return;
    this.log.warn(`The sandbox denied ${describeDenial(denial)}${denial.refused ? ` (no rule offered: ${denial.refused})` : ''}`);
    this.onDenial?.(denial);
  }

  private onStderrLine(line: string) {
    if (!line.trim()) return;
    // Enough lines to hold a Node error with its stack and properties: the error line explains a crash, not the last.
    this.recentOutput.push(line.slice(0, KEPT_OUTPUT_LINE_CHARS));
    if (this.recentOutput.length > KEPT_OUTPUT_LINES) this.recentOutput.shift();
    // Servers log to stderr by design (stdout carries the protocol): a line there is news, not a warning.
    this.log.info(`[stderr] ${line}`);
  }

  /**
   * stdin closed, then SIGTERM, then SIGKILL, each after a wait: to the server's process group (children it forked
   * late, and those a crashed server left behind) and to its process tree as read now (children that left the group).
   */
  async stop(closeTransport: () => Promise<void>): Promise<void> {
    // The debugger first: it lets a paused server go (so that it can hear stdin close), and its session ends with it.
    await this.debugger?.end().catch((e: Error) => this.log.warn(`The debug session did not end: ${e.message}`));
    this.debugger = undefined;
    // A process started early that no transport took (the start ended first) goes the same way: stdin first.
    const untaken = this.early?.process;
    this.early = undefined;
    untaken?.child.stdin?.end();
    const group = this.spawnedPid ?? untaken?.pid;
    this.started.unwatch();
    const now = group !== undefined && isAlive(group) ? [group, ...(await listDescendants(group).catch(() => []))] : [];
    // Every process that carries this run's mark (it is inherited at spawn: a detached helper whose parent exited at
    // once is found too), and every process seen under it while it ran (where marks cannot be read).
    const mark = this.transport?.runMark ?? untaken?.mark;
    const marked = mark ? await markedProcesses(RUN_MARK_VARIABLE, mark).catch(() => []) : [];
    const tree = [...new Set([...now, ...marked, ...this.started.alive()])];
    const running = () => tree.some(isAlive) || (group !== undefined && groupAlive(group));
    const closing = closeTransport();
    if (running()) {
      const stage = this.options.shutdownStageMs;
      if (!(await waitUntil(() => !running(), stage))) {
        this.log.info('Server did not exit after stdin closed: sending SIGTERM');
        await signalAll(group!, tree, 'SIGTERM');
        if (!(await waitUntil(() => !running(), stage))) {
          this.log.warn('Server did not exit after SIGTERM: sending SIGKILL');
          await signalAll(group!, tree, 'SIGKILL');
          await waitUntil(() => !running(), stage);
        }
      }
    }
    await closing;
    // Once its process has exited; a start ended before its process ran has none.
    if (this.confined) this.disposeConfined(this.confined);
  }

  /** Its placeholders let go and its temp dir removed (once); what the end of the last confined server undid, logged. */
  private disposeConfined(confined: ConfinedCommand): void {
    try {
      for (const note of confined.dispose()) this.log.warn(note);
    } catch (e) {
      this.log.error(`Could not let the sandbox's placeholders go: ${(e as Error).message}`);
    }
  }
}

/** What makes a plan fail before anything starts (its debugger included). */
function checkPlan(plan: StdioLaunchPlan): asserts plan is StdioLaunchPlan & { executable: string } {
  const problem = planProblem(plan);
  if (problem !== undefined) throw new StartError(problem, false);
}

/** The first words of a confined server that cannot be confined here. */
export const UNCONFINABLE = 'Not started: it is set to run confined ("sandboxEnabled"), and this machine cannot confine it.';

async function signalAll(group: number, tree: number[], signal: NodeJS.Signals) {
  signalGroup(group, signal);
  // Windows has no groups: taskkill walks the tree of the root; elsewhere this reaches children that left the group.
  if (isAlive(group)) await killTree(group, signal).catch(() => []);
  for (const p of tree) {
    if (p === group) continue;
    try {
      if (isAlive(p)) process.kill(p, signal);
    } catch {
      // Already gone.
    }
  }
}
