// What the tool-task suites of both wires share: a descriptor of each wire (what differs between the 2025-11-25
// experimental tasks and the 2026-07-28 tasks extension, SEP-2663) and its fixture server, started in a real child
// process and called through the guarded call path with a fresh ToolTasks for each test.
// Both fixtures name their tools alike (slow-report, vanishing, quick-task, cancelled-tasks, …) and take the same
// arguments, so a scenario calls the same tools on every wire; the descriptor holds only what differs.
import * as assert from 'assert';
import { ToolTasks, type ToolTasksOptions } from '../../src/core/features/tasks/toolTasks.lazy';
import { ToolCaller, type GuardedCallOutcome, type ToolCall } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { checkToolOutput } from '../../src/core/features/tools/toolOutputCheck.lazy';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { ServerManagerDeps } from '../../src/core/host/serverManager';
import { fixtureServer } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

export interface TaskWire {
  /** How test titles name it. */
  title: string;
  /** The protocol version its fixture settles on. */
  protocolVersion: '2025-11-25' | '2026-07-28';
  /** Its fixture server, in test/fixtures/servers. */
  fixture: string;
  /** The notification by which its server pushes a task's status (the fixture does with FIXTURE_TASK_NOTIFY=1). */
  statusNotification: string;
  /** The ids its fixture gives tasks: a task the host follows carries the server's id, not one of ours. */
  taskIds: RegExp;
}

export const experimentalTasks: TaskWire = {
  title: '2025-11-25 (experimental tasks)',
  protocolVersion: '2025-11-25',
  fixture: 'tasks-server.mjs',
  statusNotification: 'notifications/tasks/status',
  taskIds: /^task-\d+$/,
};

export const tasksExtension: TaskWire = {
  title: '2026-07-28 (the tasks extension, SEP-2663)',
  protocolVersion: '2026-07-28',
  fixture: 'tasks-extension-server.mjs',
  statusNotification: 'notifications/tasks',
  taskIds: /^ext-task-\d+-/,
};

/** Consent that lets every call through: these suites test tasks, not consent. */
const allowAll = () =>
  new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once' as const, autoAllowReadOnly: () => true });

/** A tool call as a test writes it: the tool by name, the rest of ToolCall (onTask, signal, …) as it needs. */
type Extras = Partial<Omit<ToolCall, 'serverId' | 'tool' | 'arguments'>>;

/** A running fixture server of a wire, and the ToolTasks and ToolCaller the current test calls it with. */
export class TaskServer {
  tasks!: ToolTasks;
  caller!: ToolCaller;

  constructor(
    readonly kit: Kit,
    readonly info: ServerInfo,
  ) {}

  /** Starts `wire`'s fixture as server `name` in a kit of its own; `env` tunes the fixture (FIXTURE_TASK_*). */
  static async start(wire: TaskWire, name: string, env: Record<string, string> = {}, deps: Partial<ServerManagerDeps> = {}): Promise<TaskServer> {
    const kit = createKit(deps);
    await kit.update(workspaceScope(), [entry(name, stdio(process.execPath, [fixtureServer(wire.fixture)], env))], []);
    const info = await waitForState(kit, name, 'running');
    assert.strictEqual(info.protocolVersion, wire.protocolVersion);
    const server = new TaskServer(kit, info);
    server.newTasks();
    return server;
  }

  /** A fresh ToolTasks (made as the extension makes it: results checked against the tool's output schema) and a caller that runs calls through it. */
  newTasks(options: ToolTasksOptions = { minPollMs: 20 }): void {
    this.tasks?.dispose();
    this.tasks = new ToolTasks({ ...options, checkResult: checkToolOutput });
    this.caller = new ToolCaller(this.kit.manager, new ActiveToolCalls(), allowAll(), this.tasks);
  }

  /** A caller without a task runner: every call the plain way. */
  plainCaller(): ToolCaller {
    return new ToolCaller(this.kit.manager, new ActiveToolCalls(), allowAll());
  }

  tool(name: string) {
    const tool = this.info.features.tools.find((t) => t.name === name);
    assert.ok(tool, `the fixture has no tool "${name}"`);
    return tool;
  }

  call(name: string, args: Record<string, unknown> = {}, extras: Extras = {}, caller = this.caller) {
    return caller.call({ serverId: this.info.id, tool: this.tool(name), arguments: args, origin: 'a test', ...extras }, { confirmedByUser: true });
  }

  /** The ids of the tasks the server heard a tasks/cancel for (both fixtures have the tool). */
  async cancelledOnServer(): Promise<string[]> {
    return JSON.parse(textOf(await this.call('cancelled-tasks'))) as string[];
  }

  /** The server's log (stderr, and what the host logged of the session). */
  get log(): string {
    return this.kit.logs.get(this.info.name)?.text ?? '';
  }

  /** Ends the test's ToolTasks and the kit (the server with it). */
  dispose(): Promise<void> {
    this.tasks.dispose();
    return this.kit.manager.disposeAsync();
  }
}

/** The text of a call's result, one line per content block; fails the test when the call did not run. */
export function textOf(outcome: GuardedCallOutcome): string {
  assert.ok(outcome.ran, 'the call ran');
  return outcome.result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('\n');
}

/**
 * `wire`'s fixture as server `name`, started once for the suite it is called in, with fresh ToolTasks for each test.
 * The returned value is filled in by `before`: read it inside tests and hooks only.
 */
export function useTaskServer(wire: TaskWire, name: string, env: Record<string, string> = {}, deps: Partial<ServerManagerDeps> = {}): { readonly server: TaskServer } {
  const suite = {} as { server: TaskServer };
  before(async () => (suite.server = await TaskServer.start(wire, name, env, deps)));
  after(() => suite.server?.dispose());
  beforeEach(() => suite.server.newTasks());
  afterEach(() => suite.server.tasks.dispose());
  return suite;
}
