// Tool calls as tasks on the 2026-07-28 wire (the tasks extension, SEP-2663): through the guarded call path, against
// the tasks-extension fixture in a real child process. The server decides per call whether it becomes a task; the
// host follows it with `tasks/get` (which carries the result or the error), answers the input a task asks with the
// session's own elicitation handler and `tasks/update`, cancels with `tasks/cancel`, and a lost task or a failed
// one ends failed with a plain reason. The same ToolTasks as 2025-11-25 tasks.
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import { ToolTasks } from '../../src/core/features/tasks/toolTasks.lazy';
import { type ToolTask } from '../../src/core/features/tasks/toolTask';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { checkToolOutput } from '../../src/core/features/tools/toolOutputCheck.lazy';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { InteractionQueue } from '../../src/core/host/interactionQueue';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { LanguageModel, LanguageModelInfo, ModelRequest } from '../../src/core/features/languageModel';
import { ElicitationFeature, type ElicitationUi, type FormRequest } from '../../src/core/features/elicitation/elicitationFeature.lazy';
import { SamplingFeature } from '../../src/core/features/sampling/samplingFeature.lazy';
import type { FormOutcome } from '../../src/core/features/elicitation/form';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

class Ui implements ElicitationUi {
  forms: FormRequest[] = [];
  answer: (r: FormRequest) => FormOutcome | Promise<FormOutcome> = () => ({ action: 'cancel' });
  async askForm(r: FormRequest) {
    this.forms.push(r);
    return this.answer(r);
  }
  async confirmOpenUrl() {
    return false;
  }
  async openUrl() {
    return false;
  }
}

const fakeModel: LanguageModelInfo = { id: 'fake-model', family: 'fake', vendor: 'fake-vendor', name: 'Fake Model', capabilities: { acceptsImages: false, acceptsTools: false } };

/** A model that echoes the last text it was sent, and the sampling consent each request got. */
const sampling = {
  consents: [] as string[],
  requests: [] as ModelRequest[],
  models: {
    list: async () => [fakeModel],
    get: async (info: LanguageModelInfo): Promise<LanguageModel> => ({
      info,
      async *send(r: ModelRequest) {
        sampling.requests.push(r);
        const last = r.messages.at(-1)!.parts.find((p) => p.kind === 'text') as { text: string };
        yield { kind: 'text' as const, text: `echo: ${last.text}` };
      },
      countTokens: async (text: string) => Math.ceil(text.length / 4),
    }),
  },
  dialogs: {
    confirmSampling: async (q: { serverName: string }) => {
      sampling.consents.push(q.serverName);
      return 'once' as const;
    },
    reviewSamplingResponse: async () => 'approve' as const,
    inputText: async (q: { value?: string }) => q.value,
  },
};

describe('tool calls as tasks on 2026-07-28 (the tasks extension)', function () {
  this.timeout(60_000);
  let kit: Kit;
  let server: ServerInfo;
  let pushing: ServerInfo;
  let tasks: ToolTasks;
  let caller: ToolCaller;
  const ui = new Ui();

  before(async () => {
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    kit = createKit({
      features: [
        new ElicitationFeature({ enabled: () => true, rateLimitPerMinute: () => 100, ui, permissions, activeToolCalls: new ActiveToolCalls(), queue: new InteractionQueue() }),
        new SamplingFeature({
          settings: () => ({ enabled: true, rateLimitPerMinute: 10, maxTokens: 1000, pinnedModels: [], allowedContext: 'none', allowTools: false }),
          models: sampling.models,
          dialogs: sampling.dialogs,
          permissions,
          activeToolCalls: new ActiveToolCalls(),
          queue: new InteractionQueue(),
          notifyUser: () => undefined,
          describeContext: () => '',
        }),
      ],
    });
    await kit.update(
      workspaceScope(),
      [
        entry('tasks-ext', stdio(process.execPath, [fixtureServer('tasks-extension-server.mjs')], { FIXTURE_TASK_POLL_MS: '50' })),
        // Polls rarely (every 10 s, ToolTasks' longest), but pushes every change.
        entry('tasks-push', stdio(process.execPath, [fixtureServer('tasks-extension-server.mjs')], { FIXTURE_TASK_POLL_MS: '60000', FIXTURE_TASK_NOTIFY: '1' })),
      ],
      [],
    );
    await waitForState(kit, 'tasks-ext', 'running');
    await waitForState(kit, 'tasks-push', 'running');
    server = kit.manager.servers().find((s) => s.name === 'tasks-ext')!;
    pushing = kit.manager.servers().find((s) => s.name === 'tasks-push')!;
    assert.strictEqual(server.protocolVersion, '2026-07-28');
  });

  after(() => kit.manager.disposeAsync());

  beforeEach(() => {
    // As the extension creates it (taskRows.ts): results checked against the tool's output schema.
    tasks = new ToolTasks({ minPollMs: 20, checkResult: checkToolOutput });
    const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once' as const, autoAllowReadOnly: () => true });
    caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consent, tasks);
  });

  afterEach(() => tasks.dispose());

  const tool = (name: string) => server.features.tools.find((t) => t.name === name)!;
  const call = (name: string, args: Record<string, unknown> = {}, more: object = {}) =>
    caller.call({ serverId: server.id, tool: tool(name), arguments: args, origin: 'a test', ...more }, { confirmedByUser: true });
  const text = (outcome: Awaited<ReturnType<typeof call>>) => {
    assert.ok(outcome.ran);
    return outcome.result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('\n');
  };
  /** Waits (up to 10 s) until `get` gives something, and gives it. */
  const until = <T>(get: () => T | undefined | false, what: string) => waitFor(get, what, 10_000) as Promise<T>;

  it('a call the server answers with a task becomes a task in the registry: polled, its result from tasks/get', async () => {
    const seen: string[] = [];
    tasks.onDidChange((t) => seen.push(`${t.status}:${t.statusMessage ?? ''}`));
    let started: ToolTask | undefined;
    const outcome = await call('slow-report', { steps: 3, stepMs: 150 }, { onTask: (t: ToolTask) => (started = t) });
    assert.strictEqual(text(outcome), 'Report ready after 3 steps.');
    assert.ok(started, 'the server made it a task, and the caller was told');
    const [task] = tasks.of(server.id);
    assert.strictEqual(task, started);
    assert.strictEqual(task.status, 'completed');
    assert.ok(task.taskId.startsWith('ext-task-'));
    assert.strictEqual(task.result?.content[0].type, 'text');
    assert.ok(seen.some((s) => s.startsWith('working:Step 2 of 3')), `polled status messages: ${seen.join(', ')}`);
    assert.ok(!/Protocol:/.test(kit.logs.get('tasks-ext')!.text), 'the SDK saw nothing it refused');
  });

  it('a notifications/tasks the server pushes is taken at once (no wait for the next poll), its result with it', async () => {
    const started = Date.now();
    const outcome = await caller.call({ serverId: pushing.id, tool: pushing.features.tools.find((t) => t.name === 'slow-report')!, arguments: { steps: 2, stepMs: 100 }, origin: 'a test' }, { confirmedByUser: true });
    assert.strictEqual(text(outcome), 'Report ready after 2 steps.');
    assert.ok(Date.now() - started < 5000, `done in ${Date.now() - started} ms, not at the next poll (10 s)`);
    assert.strictEqual(tasks.of(pushing.id)[0].status, 'completed');
    assert.ok(!/Protocol:/.test(kit.logs.get('tasks-push')!.text), 'the SDK never saw notifications/tasks');
  });

  it("checks results against the tool's output schema, as the SDK checks its own calls: of a task, and at once", async () => {
    const typed = await call('typed-report');
    assert.ok(typed.ran);
    assert.deepStrictEqual(typed.result.structuredContent, { pages: 3 });
    assert.strictEqual(tasks.of(server.id)[0].status, 'completed', 'it ran as a task');
    await assert.rejects(call('typed-report', { wrong: true }), /Structured content does not match the tool's output schema/);
    assert.strictEqual(tasks.of(server.id)[0].status, 'failed');
    await assert.rejects(call('typed-report', { now: true, wrong: true }), /Structured content does not match the tool's output schema/);
  });

  it('a call the server answers at once is an ordinary result (no task)', async () => {
    assert.strictEqual(text(await call('quick')), 'Quick answer.');
    assert.deepStrictEqual(tasks.of(server.id), []);
  });

  it('declares the extension on tools/call and the tasks requests, and on no other request', async () => {
    await call('slow-report', { steps: 1, stepMs: 10 });
    await kit.manager.session(server.id).refreshResources().catch(() => undefined);
    const declared = JSON.parse(text(await call('declared'))) as Record<string, boolean>;
    assert.strictEqual(declared['tools/call'], true);
    assert.strictEqual(declared['tasks/get'], true);
    assert.strictEqual(declared['tools/list'], false);
  });

  it('input a task needs goes to the elicitation handler and back with tasks/update; each request is asked once', async () => {
    ui.forms = [];
    ui.answer = () => ({ action: 'accept', values: { name: 'Ada' } });
    const statuses: string[] = [];
    tasks.onDidChange((t) => statuses.push(t.status));
    assert.strictEqual(text(await call('needs-input')), 'Hello, Ada.');
    assert.strictEqual(ui.forms.length, 1, 'asked once, though polled while waiting');
    assert.strictEqual(ui.forms[0].message, 'What is your name?');
    assert.ok(statuses.includes('input_required'));
    assert.strictEqual(tasks.of(server.id)[0].status, 'completed');
  });

  it('a completion a task asks for goes through sampling consent and the model, and back with tasks/update', async () => {
    sampling.consents = [];
    sampling.requests = [];
    assert.strictEqual(text(await call('needs-sample')), 'Model said: echo: Say hi');
    assert.deepStrictEqual(sampling.consents, ['tasks-ext'], 'the same consent as a request on the wire');
    assert.strictEqual(sampling.requests.length, 1);
  });

  it('input the host refuses to give cancels the task, which is shown failed with why', async () => {
    await assert.rejects(call('needs-sample', { maxTokens: 5000 }), /request for input could not be answered: .*maxTokens 5000 exceeds/);
    const [task] = tasks.of(server.id);
    assert.strictEqual(task.status, 'failed');
    assert.ok((JSON.parse(text(await call('cancelled-tasks'))) as string[]).includes(task.taskId), 'tasks/cancel reached the server');
  });

  it('a call that needs input before it answers (input_required, no task) is answered and sent again', async () => {
    ui.forms = [];
    ui.answer = () => ({ action: 'accept', values: { name: 'Grace' } });
    assert.strictEqual(text(await call('greet-first')), 'Hello, Grace.');
    assert.deepStrictEqual(ui.forms.map((f) => f.message), ['Your name first?']);
    assert.deepStrictEqual(tasks.of(server.id), []);
  });

  it('cancelling a task that waits for input closes its question (the dialog gets the abort)', async () => {
    let asked: FormRequest | undefined;
    ui.answer = (r) => {
      asked = r;
      return new Promise<FormOutcome>((resolve) => r.signal?.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
    };
    let started: ToolTask | undefined;
    const running = call('needs-input', {}, { onTask: (t: ToolTask) => (started = t) });
    const failed = assert.rejects(running, /Cancelled/);
    await until(() => asked, 'the question');
    await tasks.cancel(started!.key);
    await failed;
    assert.ok(asked!.signal?.aborted, 'the question was withdrawn');
    assert.strictEqual(started!.status, 'cancelled');
  });

  it('cancels from the registry: tasks/cancel reaches the server, the task ends cancelled and its caller is told', async () => {
    let started: ToolTask | undefined;
    const running = call('slow-report', { steps: 100, stepMs: 100 }, { onTask: (t: ToolTask) => (started = t) });
    started = await until(() => started, 'the task');
    await tasks.cancel(started.key);
    await assert.rejects(running, /Cancelled/);
    assert.strictEqual(started.status, 'cancelled');
    assert.ok((JSON.parse(text(await call('cancelled-tasks'))) as string[]).includes(started.taskId));
  });

  it('a task that failed ends failed with the error the server gave', async () => {
    await assert.rejects(call('failing'), /Report backend unavailable/);
    const [task] = tasks.of(server.id);
    assert.strictEqual(task.status, 'failed');
    assert.match(task.failure ?? '', /The backend went away \(Report backend unavailable\)/);
  });

  it('a task the server lost ends failed with a plain reason, not a spinner', async () => {
    await assert.rejects(call('vanishing', { afterMs: 100 }), /lost track of the task: .*Unknown task/);
    assert.strictEqual(tasks.of(server.id)[0].status, 'failed');
  });

  it('a session that ends fails its tasks, and nothing waits', async () => {
    let started: ToolTask | undefined;
    const running = call('slow-report', { steps: 100, stepMs: 100 }, { onTask: (t: ToolTask) => (started = t) });
    started = await until(() => started, 'the task');
    const failed = assert.rejects(running, /ended before the task did|has ended/);
    await kit.update(workspaceScope(), [], []); // the server is removed: its session ends
    await failed;
    assert.strictEqual(started.status, 'failed');
  });
});

describe('tool calls as tasks on 2026-07-28, over Streamable HTTP', function () {
  this.timeout(60_000);
  let bridge: ChildProcess;
  let base: string;
  let kit: Kit;

  before(async () => {
    bridge = spawn(process.execPath, [fixtureServer('http-bridge.mjs'), fixtureServer('tasks-extension-server.mjs')], { env: { ...process.env, PORT: '0', FIXTURE_TASK_POLL_MS: '50' }, stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve) => bridge.stdout!.on('data', (d: Buffer) => /listening (\d+)/.test(String(d)) && resolve(Number(/listening (\d+)/.exec(String(d))![1]))));
    base = `http://127.0.0.1:${port}`;
    kit = createKit();
    await kit.update(workspaceScope(), [entry('tasks-http', { type: 'http', url: `${base}/mcp`, headers: {} })], []);
    await waitForState(kit, 'tasks-http', 'running');
  });

  after(async () => {
    await kit.manager.disposeAsync();
    bridge.kill();
  });

  it("runs a task over HTTP on the raw path, each task request routed by the task's id (Mcp-Name)", async () => {
    const server = kit.manager.servers().find((s) => s.name === 'tasks-http')!;
    assert.strictEqual(server.protocolVersion, '2026-07-28');
    const tasks = new ToolTasks({ minPollMs: 20 });
    const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once' as const, autoAllowReadOnly: () => true });
    const caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consent, tasks);
    const outcome = await caller.call({ serverId: server.id, tool: server.features.tools.find((t) => t.name === 'slow-report')!, arguments: { steps: 2, stepMs: 100 }, origin: 'a test' }, { confirmedByUser: true });
    assert.ok(outcome.ran);
    assert.deepStrictEqual(outcome.result.content, [{ type: 'text', text: 'Report ready after 2 steps.' }]);
    const [task] = tasks.of(server.id);
    assert.strictEqual(task.status, 'completed');
    const seen = (await (await fetch(`${base}/_headers`)).json()) as { method: string; mcpMethod: string | null; mcpName: string | null }[];
    const gets = seen.filter((h) => h.method === 'tasks/get');
    assert.ok(gets.length > 0, JSON.stringify(seen));
    assert.ok(gets.every((h) => h.mcpMethod === 'tasks/get' && h.mcpName === task.taskId), JSON.stringify(gets));
    assert.ok(seen.some((h) => h.method === 'tools/call' && h.mcpName === 'slow-report'), JSON.stringify(seen));
  });
});
