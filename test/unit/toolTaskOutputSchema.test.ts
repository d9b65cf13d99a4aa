// A task's result (tasks/result) is checked against the tool's output schema as a plain tools/call result is (the SDK
// checks those in callTool): the same validator, the same error, against the tasks fixture in a real child process.
import * as assert from 'assert';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ToolTasks } from '../../src/core/features/tasks/toolTasks.lazy';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { checkToolOutput } from '../../src/core/features/tools/toolOutputCheck.lazy';
import { fixtureServer } from './helpers';
import { createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe("a task's result and the tool's output schema", function () {
  this.timeout(60_000);
  let kit: Kit;
  let server: ServerInfo;
  let tasks: ToolTasks;

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), [entry('tasks', stdio(process.execPath, [fixtureServer('tasks-server.mjs')], { FIXTURE_TASK_POLL_MS: '50' }))], []);
    await waitForState(kit, 'tasks', 'running');
    server = kit.manager.servers().find((s) => s.name === 'tasks')!;
  });

  after(() => kit.manager.disposeAsync());
  beforeEach(() => (tasks = new ToolTasks({ minPollMs: 20, checkResult: checkToolOutput })));
  afterEach(() => tasks.dispose());

  const tool = () => server.features.tools.find((t) => t.name === 'typed-report')!;
  const runAsTask = (valid: boolean) => tasks.run(kit.manager.session(server.id), { tool: tool(), arguments: { valid }, origin: 'a test' });
  /** The error a plain call gets for the same result (the SDK's check in callTool). */
  const plainError = async () => {
    try {
      await kit.manager.session(server.id).callTool({ name: 'typed-report', arguments: { valid: false } }, { tool: tool() });
    } catch (e) {
      return (e as Error).message;
    }
    return assert.fail('the plain call passed the check');
  };

  it('a result that breaks the schema fails the task with the error a plain call gets', async () => {
    const expected = await plainError();
    assert.match(expected, /^Structured content does not match the tool's output schema: /);
    await assert.rejects(runAsTask(false), (e: Error) => e.message === expected);
    const [task] = tasks.of(server.id);
    assert.strictEqual(task.status, 'failed');
    assert.strictEqual(task.failure, expected, 'the Tasks row says the same');
    assert.strictEqual(task.result, undefined, 'no result to reopen');
  });

  it('a result that fits the schema completes the task with its structured content', async () => {
    const result = await runAsTask(true);
    assert.deepStrictEqual(result.structuredContent, { count: 3 });
    assert.strictEqual(tasks.of(server.id)[0].status, 'completed');
  });

  it('checks as the SDK does: no structured content from a tool with a schema is refused, an error result is not checked', () => {
    const t = tool();
    const text: CallToolResult = { content: [{ type: 'text', text: 'x' }] };
    assert.throws(() => checkToolOutput(t, text), (e: Error) => e.message === 'Tool typed-report has an output schema but did not return structured content');
    assert.doesNotThrow(() => checkToolOutput(t, { ...text, isError: true }));
    assert.doesNotThrow(() => checkToolOutput({ ...t, outputSchema: undefined }, { ...text, structuredContent: { count: 'x' } }));
  });
});
