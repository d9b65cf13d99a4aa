// Tool search in the real extension host: four real servers of the test catalogue (160 tools, more than the 128 a
// request carries) and the demo model. @mcp offers it the search tool instead of dropping tools; it searches for what
// it was asked, gets the tool with its schema and calls it in the next round, with the user's consent. Agents get the
// same ranking from mcpHost_listTools with a query.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { activateDemoModel, activateHost, answerDialogs, askChat, DEMO_MODEL, fixtureServer, transcriptMarkdown, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

const SERVERS = ['github', 'gitlab', 'jira', 'linear'];

describe('tool search with 160 tools in a real VS Code', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const questions: ToolConsentQuestion[] = [];

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);

  before(async () => {
    api = await activateHost();
    await activateDemoModel();
    dialogs = answerDialogs(api, {
      confirmToolCall: async (q) => {
        questions.push(q);
        return 'once';
      },
    });
    config = await WorkspaceConfig.read();
    await config.writeServers(Object.fromEntries(SERVERS.map((s) => [s, { command: 'node', args: [fixtureServer('catalogue-server.mjs'), s] }])));
    for (const s of SERVERS) {
      await waitFor(() => server(s), `${s} configured`);
      if (server(s)!.state.kind !== 'running' && server(s)!.state.kind !== 'starting') await api.testing.startServer(server(s)!.id);
      await waitFor(() => server(s)?.state.kind === 'running' && server(s)!.features.tools.length === 40, `${s} running with its 40 tools`, 30_000);
    }
  });

  after(async () => {
    dialogs.dispose();
    await config.restore();
    await vscode.commands.executeCommand('mcpHost.resetToolPermissions');
  });

  it('@mcp offers a search instead of 160 tools: the demo model searches, and the tool it finds runs after consent', async () => {
    const t = await askChat(api, '@mcp find a tool to create a jira ticket {"id": "login crash"}', { model: DEMO_MODEL });
    assert.strictEqual(t.errorMessage, undefined);
    const markdown = transcriptMarkdown(t);
    // Found tools are named by their display title, as on every other surface (Markdown-escaped).
    assert.match(markdown, /Searched the 160 tools \(more than one request carries\) for "create a jira ticket": Create issue \\\(jira\\\)/);
    assert.deepStrictEqual(
      questions.map((q) => [q.serverName, q.toolName, JSON.parse(q.argumentsJson)]),
      [['jira', 'createIssue', { id: 'login crash' }]],
    );
    assert.match(markdown, /The tool answered:\s+jira\/createIssue ran with \{"id":"login crash"\}/);
  });

  it('mcpHost_listTools ranks by a query, and without one says how to ask rather than list 160 schemas', async () => {
    const text = async (input: object) => ((await vscode.lm.invokeTool('mcpHost_listTools', { input, toolInvocationToken: undefined })).content[0] as vscode.LanguageModelTextPart).value;
    const ranked = JSON.parse(await text({ query: 'list the sprints of the jira board', limit: 3 })) as { name: string; inputSchema: unknown }[];
    assert.strictEqual(ranked.length, 3);
    assert.strictEqual(ranked[0].name, 'jira_listSprints');
    const overview = JSON.parse(await text({})) as { note: string; servers: { server: string; tools: number }[] };
    assert.match(overview.note, /160 tools, too many to list with their schemas/);
    assert.deepStrictEqual(overview.servers, SERVERS.map((s) => ({ server: s, tools: 40 })));
  });
});
