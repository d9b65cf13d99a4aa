// Tool calls as tasks, what only 2026-07-28 (the tasks extension, SEP-2663) does, against the tasks-extension fixture
// in a real child process. The server decides per call whether it becomes a task; `tasks/get` carries the result or
// the error, checked against the tool's output schema; input a task asks goes to the session's own elicitation and
// sampling handlers and back with `tasks/update`; the extension is declared only on the requests that may make a
// task; over Streamable HTTP the task requests take the raw path. What every wire does is in toolTasksWires.test.ts.
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import { type ToolTask } from '../../src/core/features/tasks/toolTask';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { InteractionQueue } from '../../src/core/host/interactionQueue';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { LanguageModel, LanguageModelInfo, ModelRequest } from '../../src/core/features/languageModel';
import { ElicitationFeature, type ElicitationUi, type FormRequest } from '../../src/core/features/elicitation/elicitationFeature.lazy';
import { SamplingFeature } from '../../src/core/features/sampling/samplingFeature.lazy';
import type { FormOutcome } from '../../src/core/features/elicitation/form';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, MemoryStore, waitForState, workspaceScope, type Kit } from './hostTestKit';
import { TaskServer, tasksExtension, textOf, useTaskServer } from './taskTestKit';

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

describe(`tool calls as tasks on ${tasksExtension.title}: what only it does`, function () {
  this.timeout(60_000);
  const ui = new Ui();
  const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
  const features = [
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
  ];
  const suite = useTaskServer(tasksExtension, 'tasks-ext', { FIXTURE_TASK_POLL_MS: '50' }, { features });

  it("checks results against the tool's output schema, as the SDK checks its own calls: of a task, and at once", async () => {
    const { server } = suite;
    const typed = await server.call('typed-report');
    assert.ok(typed.ran);
    assert.deepStrictEqual(typed.result.structuredContent, { pages: 3 });
    assert.strictEqual(server.tasks.of(server.info.id)[0].status, 'completed', 'it ran as a task');
    await assert.rejects(server.call('typed-report', { wrong: true }), /Structured content does not match the tool's output schema/);
    assert.strictEqual(server.tasks.of(server.info.id)[0].status, 'failed');
    await assert.rejects(server.call('typed-report', { now: true, wrong: true }), /Structured content does not match the tool's output schema/);
  });

  it('a call the server answers at once is an ordinary result (no task)', async () => {
    const { server } = suite;
    assert.strictEqual(textOf(await server.call('quick')), 'Quick answer.');
    assert.deepStrictEqual(server.tasks.of(server.info.id), []);
  });

  it('declares the extension on tools/call and the tasks requests, and on no other request', async () => {
    const { server } = suite;
    await server.call('slow-report', { steps: 1, stepMs: 10 });
    await server.kit.manager.session(server.info.id).refreshResources().catch(() => undefined);
    const declared = JSON.parse(textOf(await server.call('declared'))) as Record<string, boolean>;
    assert.strictEqual(declared['tools/call'], true);
    assert.strictEqual(declared['tasks/get'], true);
    assert.strictEqual(declared['tools/list'], false);
  });

  it('input a task needs goes to the elicitation handler and back with tasks/update; each request is asked once', async () => {
    const { server } = suite;
    ui.forms = [];
    ui.answer = () => ({ action: 'accept', values: { name: 'Ada' } });
    const statuses: string[] = [];
    server.tasks.onDidChange((t) => statuses.push(t.status));
    assert.strictEqual(textOf(await server.call('needs-input')), 'Hello, Ada.');
    assert.strictEqual(ui.forms.length, 1, 'asked once, though polled while waiting');
    assert.strictEqual(ui.forms[0].message, 'What is your name?');
    assert.ok(statuses.includes('input_required'));
    assert.strictEqual(server.tasks.of(server.info.id)[0].status, 'completed');
  });

  it('a completion a task asks for goes through sampling consent and the model, and back with tasks/update', async () => {
    const { server } = suite;
    sampling.consents = [];
    sampling.requests = [];
    assert.strictEqual(textOf(await server.call('needs-sample')), 'Model said: echo: Say hi');
    assert.deepStrictEqual(sampling.consents, ['tasks-ext'], 'the same consent as a request on the wire');
    assert.strictEqual(sampling.requests.length, 1);
  });

  it('input the host refuses to give cancels the task, which is shown failed with why', async () => {
    const { server } = suite;
    await assert.rejects(server.call('needs-sample', { maxTokens: 5000 }), /request for input could not be answered: .*maxTokens 5000 exceeds/);
    const [task] = server.tasks.of(server.info.id);
    assert.strictEqual(task.status, 'failed');
    assert.ok((await server.cancelledOnServer()).includes(task.taskId), 'tasks/cancel reached the server');
  });

  it('a call that needs input before it answers (input_required, no task) is answered and sent again', async () => {
    const { server } = suite;
    ui.forms = [];
    ui.answer = () => ({ action: 'accept', values: { name: 'Grace' } });
    assert.strictEqual(textOf(await server.call('greet-first')), 'Hello, Grace.');
    assert.deepStrictEqual(ui.forms.map((f) => f.message), ['Your name first?']);
    assert.deepStrictEqual(server.tasks.of(server.info.id), []);
  });

  it('cancelling a task that waits for input closes its question (the dialog gets the abort)', async () => {
    const { server } = suite;
    let asked: FormRequest | undefined;
    ui.answer = (r) => {
      asked = r;
      return new Promise<FormOutcome>((resolve) => r.signal?.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
    };
    let started: ToolTask | undefined;
    const running = server.call('needs-input', {}, { onTask: (t) => (started = t) });
    const failed = assert.rejects(running, /Cancelled/);
    await waitFor(() => asked, 'the question');
    await server.tasks.cancel(started!.key);
    await failed;
    assert.ok(asked!.signal?.aborted, 'the question was withdrawn');
    assert.strictEqual(started!.status, 'cancelled');
  });

  it('a task that failed ends failed with the error the server gave', async () => {
    const { server } = suite;
    await assert.rejects(server.call('failing'), /Report backend unavailable/);
    const [task] = server.tasks.of(server.info.id);
    assert.strictEqual(task.status, 'failed');
    assert.match(task.failure ?? '', /The backend went away \(Report backend unavailable\)/);
  });
});

describe(`tool calls as tasks on ${tasksExtension.title}, over Streamable HTTP`, function () {
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
    const http = new TaskServer(kit, server);
    http.newTasks();
    const outcome = await http.call('slow-report', { steps: 2, stepMs: 100 });
    assert.ok(outcome.ran);
    assert.deepStrictEqual(outcome.result.content, [{ type: 'text', text: 'Report ready after 2 steps.' }]);
    const [task] = http.tasks.of(server.id);
    assert.strictEqual(task.status, 'completed');
    const seen = (await (await fetch(`${base}/_headers`)).json()) as { method: string; mcpMethod: string | null; mcpName: string | null }[];
    const gets = seen.filter((h) => h.method === 'tasks/get');
    assert.ok(gets.length > 0, JSON.stringify(seen));
    assert.ok(gets.every((h) => h.mcpMethod === 'tasks/get' && h.mcpName === task.taskId), JSON.stringify(gets));
    assert.ok(seen.some((h) => h.method === 'tools/call' && h.mcpName === 'slow-report'), JSON.stringify(seen));
  });
});
