// Dormant servers in a real VS Code: 50 servers known from their last run come (back) into the window without a single
// process, the Servers view lists their tools at once, a fake model's @mcp call of one's tool starts it and gets the
// result in the same turn, an idle one stops and shows dormant again, and an agent's call (mcpHost_callTool) of a
// dormant one starts it again. The main pass runs eager (runTests.ts): this suite's servers say "startup": "onDemand"
// (the default's behaviour, so that the other suites' servers are left as they run).
// "Opening a window" is what adding known servers to a window does: the same path (a scope's servers appear, each
// known from its last run, and none starts), without closing this extension host.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import { activateFakeLm, activateHost, answerDialogs, askChat, FAKE_MODEL, fixtureServer, sleep, transcriptMarkdown, waitFor, WorkspaceConfig, type FakeLm, type TestedHost } from './testKit';
import { processesMarked } from './processes';

const COUNT = 50;
const MARK = '--mcphost-dormant-test';
const names = Array.from({ length: COUNT }, (_, i) => `dormant${String(i + 1).padStart(2, '0')}`);

/** The processes of this suite's servers (by the argument each is started with), zombies left out. */
const serverProcesses = (): number[] => processesMarked(MARK);

describe('Dormant servers (known from their last run, started on first use)', function () {
  this.timeout(240_000);
  let api: TestedHost;
  let lm: FakeLm;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const toolAnswers: (ConsentAnswer | undefined)[] = [];
  const settings = () => vscode.workspace.getConfiguration('mcpHost');

  const mine = (): ServerInfo[] => api.getServers().filter((s) => names.includes(s.name));
  const server = (name: string) => mine().find((s) => s.name === name);
  const entries = () => Object.fromEntries(names.map((name) => [name, { command: process.execPath, args: [fixtureServer('basic-server.mjs'), MARK, name], startup: 'onDemand' }]));

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    config = await WorkspaceConfig.read();
    dialogs = answerDialogs(api, { confirmToolCall: async () => toolAnswers.shift() });
    await settings().update('servers.idleStopMinutes', 0, vscode.ConfigurationTarget.Global);
    // VS Code's own MCP support reads this mcp.json too, and starts its servers for a chat request: MCP Host runs them
    // here, as a user who took the coexistence notice's offer has it.
    await vscode.workspace.getConfiguration('chat.mcp').update('access', 'none', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config.restore();
    await waitFor(() => mine().length === 0 && serverProcesses().length === 0, 'the suite\'s servers gone', 30_000);
    await settings().update('servers.idleStopMinutes', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('chat.mcp').update('access', undefined, vscode.ConfigurationTarget.Global);
    // VS Code's own MCP is on again: the Servers view's first row says so once the change is seen; later suites count
    // the view's refreshes, which that row's change must not fall among.
    const firstRow = async () => {
      const [node] = (await api.testing.serversTree.getChildren()) ?? [];
      const label = node ? (await api.testing.serversTree.getTreeItem(node as never)).label : undefined;
      return typeof label === 'string' ? label : (label?.label ?? '');
    };
    await waitFor(async () => /built-in MCP/.test(await firstRow()), "the built-in MCP row again", 15_000).catch(() => undefined);
    await sleep(1500);
    dialogs.dispose();
    lm.reset();
  });

  it(`starts ${COUNT} servers never run before once, to be known; known, they come into a window with no process, their tools listed at once`, async () => {
    await config.writeServers({ ...config.servers(), ...entries() });
    await waitFor(() => mine().length === COUNT && mine().every((s) => s.state.kind === 'running' && s.features.tools.length === 5), `${COUNT} servers running, to be known`, 120_000);
    // Out of the window, then back: as a window that opens with them.
    await config.restore();
    await waitFor(() => mine().length === 0 && serverProcesses().length === 0, 'the servers removed and stopped', 60_000);
    const before = Date.now();
    await config.writeServers({ ...config.servers(), ...entries() });
    await waitFor(() => mine().length === COUNT, `${COUNT} servers listed`, 30_000);
    const listedMs = Date.now() - before;
    assert.deepStrictEqual(
      mine().filter((s) => s.state.kind !== 'dormant').map((s) => `${s.name}: ${s.state.kind}`),
      [],
      'every one dormant',
    );
    assert.ok(mine().every((s) => s.features.tools.map((t) => t.name).join() === 'echo,whoami,add-tool,crash,get-roots' && s.knownFrom), 'each with its tools, known from its last run');
    // Nothing starts later either.
    await sleep(2000);
    assert.deepStrictEqual(serverProcesses(), [], 'no server process');
    assert.ok(mine().every((s) => s.state.kind === 'dormant'));
    // The view lists them, their tools at once (no start), under "Known from its last run".
    const tree = api.testing.renderServersTree().join('\n');
    // Each row says what its known tools add to a model request, marked as from its last run.
    assert.match(tree, /dormant01 — dormant · ≈?\d+ tokens$/m);
    assert.match(tree, /dormant50 — dormant · ≈?\d+ tokens\n\s+Known from its last run\n\s+Tools[^\n]*\n\s+echo/);
    // And the status bar says how many run and how many are dormant.
    const dormantStatus = /^MCP servers \(50 dormant: started when used\)\n[\s\S]*dormant01: dormant · 5 tools \(known from its last run; starts when used\)/;
    await waitFor(() => dormantStatus.test(String(api.testing.statusBar()?.tooltip)), `the status bar's tooltip: ${api.testing.statusBar()?.tooltip}`);
    assert.deepStrictEqual(serverProcesses(), [], 'rendering the view started nothing');
    console.log(`      ${COUNT} known servers listed ${listedMs} ms after the file was written, none started`);
  });

  it('a fake model\'s @mcp call of a dormant server\'s tool starts it and returns the result in the same turn', async () => {
    assert.strictEqual(server('dormant07')?.state.kind, 'dormant');
    lm.setResponder((messages) => {
      const answered = messages.some((m) => m.content.some((p) => Array.isArray((p as { content?: unknown }).content)));
      return answered ? 'Done.' : [new vscode.LanguageModelToolCallPart('call-d7', 'dormant07_echo', { text: 'awake' })];
    });
    toolAnswers.push('once');
    const t = await askChat(api, '@mcp echo awake with dormant07', { model: FAKE_MODEL });
    assert.strictEqual(t.errorMessage, undefined);
    assert.match(transcriptMarkdown(t), /```\nawake\n```/, 'the result, in this turn');
    assert.match(transcriptMarkdown(t), /Done\./);
    const woken = server('dormant07')!;
    assert.strictEqual(woken.state.kind, 'running');
    assert.strictEqual(woken.startedFor, 'a call of echo');
    assert.deepStrictEqual(
      mine().filter((s) => s.state.kind !== 'dormant').map((s) => `${s.name}: ${s.state.kind} for ${s.startedFor}`),
      ['dormant07: running for a call of echo'],
      'only that one started',
    );
    assert.strictEqual(serverProcesses().length, 1, 'one process');
    assert.match(api.testing.renderServersTree().join('\n'), /dormant07 — running · (5 tools|≈?\d+ tokens)$/m);
    await waitFor(() => /dormant07: running · 5 tools · started for a call of echo/.test(String(api.testing.statusBar()?.tooltip)), 'the status bar says what started it');
  });

  it('an idle server stops and shows dormant again; an agent\'s call of its tool (mcpHost_callTool) starts it again', async () => {
    await settings().update('servers.idleStopMinutes', 0.02, vscode.ConfigurationTarget.Global);
    // Checked again within 30 s of a changed setting.
    await waitFor(() => server('dormant07')?.state.kind === 'dormant', 'dormant07 dormant again', 60_000);
    await waitFor(() => serverProcesses().length === 0, 'its process gone');
    await settings().update('servers.idleStopMinutes', 0, vscode.ConfigurationTarget.Global);
    // Allowed for good first (VS Code's own confirmation is tested in models.test.ts), with the palette's command, which starts it too.
    toolAnswers.push('always');
    await vscode.commands.executeCommand('mcpHost.callTool', server('dormant09')!.id, 'echo', { text: 'first' });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.strictEqual(server('dormant09')?.state.kind, 'running');
    await settings().update('servers.idleStopMinutes', 0.02, vscode.ConfigurationTarget.Global);
    await waitFor(() => server('dormant09')?.state.kind === 'dormant', 'dormant09 dormant again', 60_000);
    await settings().update('servers.idleStopMinutes', 0, vscode.ConfigurationTarget.Global);
    const result = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'dormant09', tool: 'echo', arguments: { text: 'again' } }, toolInvocationToken: undefined });
    assert.strictEqual((result.content[0] as vscode.LanguageModelTextPart).value, 'again');
    assert.strictEqual(server('dormant09')?.state.kind, 'running');
    assert.match(api.testing.renderServersTree().join('\n'), /dormant09 — running/);
  });
  it('a tool that vanished between runs is reported to the model and never sent; a changed definition starts, to be known', async () => {
    // dormant09 runs (the test before): it adds a tool at runtime, which its next process will not have.
    await api.testing.callTool(server('dormant09')!.id, 'add-tool', { name: 'fleeting' });
    await waitFor(() => server('dormant09')?.features.tools.some((t) => t.name === 'fleeting'), 'the added tool listed');
    const rest = Object.fromEntries(Object.entries(entries()).filter(([name]) => name !== 'dormant09'));
    await config.writeServers({ ...config.servers(), ...rest });
    await waitFor(() => !server('dormant09') && serverProcesses().length === 0, 'dormant09 out of the window');
    await config.writeServers({ ...config.servers(), ...entries() });
    await waitFor(() => server('dormant09')?.state.kind === 'dormant', 'dormant09 back, dormant');
    assert.ok(server('dormant09')!.features.tools.some((t) => t.name === 'fleeting'), 'known from its last run');
    const asked = lm.calls.length;
    lm.setResponder((messages) => {
      const answered = messages.some((m) => m.content.some((p) => Array.isArray((p as { content?: unknown }).content)));
      return answered ? 'Noted.' : [new vscode.LanguageModelToolCallPart('call-f', 'dormant09_fleeting', {})];
    });
    toolAnswers.push('once');
    const t = await askChat(api, '@mcp use fleeting of dormant09', { model: FAKE_MODEL });
    assert.strictEqual(t.errorMessage, undefined);
    const toModel = JSON.stringify(lm.calls.slice(asked).map((c) => c.messages));
    assert.match(toModel, /The tool \\"fleeting\\" is no longer offered by the MCP server \\"dormant09\\"[^"]*The call was not sent\./, 'the model is told');
    const now = server('dormant09')!;
    assert.strictEqual(now.state.kind, 'running', 'started for the call');
    assert.ok(!now.features.tools.some((t) => t.name === 'fleeting'), 'and lists what it offers now');
    // A changed definition is not known: it starts at once, to be known.
    assert.strictEqual(server('dormant10')?.state.kind, 'dormant');
    await config.writeServers({ ...config.servers(), ...entries(), dormant10: { ...entries().dormant10, env: { CHANGED: '1' } } });
    await waitFor(() => server('dormant10')?.state.kind === 'running', 'dormant10, changed, running');
    assert.strictEqual(server('dormant10')!.startedFor, undefined, 'started to be known, not for a use');
    assert.strictEqual(server('dormant11')?.state.kind, 'dormant', 'the others stay dormant');
  });
});
