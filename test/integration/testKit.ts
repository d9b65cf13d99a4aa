// What the integration suites share: waiting, the activated extension with its test hooks, the fixture paths, the
// test-only fake language model, and answers for the dialogs that VS Code refuses to show modally in tests.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ChatTranscript } from '../../src/vscode/chat/chatTranscripts';
import type { HostDialogs } from '../../src/vscode/dialogs/dialogRouter';
import type { McpHostApi, McpHostTestingApi } from '../../src/vscode/publicApi';
import { sleep, waitFor } from '../unit/helpers';

export { sleep, waitFor };

/** Set by runTests.ts: the tests run from a workspace copied elsewhere. */
export const repoRoot = process.env.MCPHOST_TEST_REPO_ROOT!;
export const fixtureServer = (name: string): string => path.join(repoRoot, 'test', 'fixtures', 'servers', name);

/** The extension's API in test mode, where its test hooks are always there. */
export type TestedHost = McpHostApi & { readonly testing: McpHostTestingApi };

export async function activateHost(): Promise<TestedHost> {
  const ext = vscode.extensions.getExtension('mcp-host.mcp-host');
  assert.ok(ext, 'extension installed');
  const api = (await ext.activate()) as McpHostApi;
  assert.ok(api.testing, 'test hooks are available in test mode');
  return api as TestedHost;
}

/**
 * Installs a suite's answers in place of the modal dialogs until disposed; trust is granted unless the suite answers
 * it itself. What it does not answer goes to the answers installed before, or to the native dialogs.
 */
export function answerDialogs(api: TestedHost, answers: Partial<HostDialogs>): vscode.Disposable {
  const confirmTrust = answers.confirmTrust ?? (async () => true);
  return api.testing.useDialogs({
    confirmTrust,
    // Several new servers of a folder are asked about at once: the suite's answer for each, when they agree.
    confirmTrustMany: async (q) => {
      const each = await Promise.all(q.servers.map((server) => confirmTrust(server)));
      if (each.every((a) => a === true)) return 'all';
      if (each.every((a) => a === false)) return 'none';
      if (each.every((a) => a === undefined)) return undefined;
      throw new Error(`different trust answers for ${q.servers.map((x) => x.serverName).join(', ')}: answer confirmTrustMany and its pick in the suite`);
    },
    ...answers,
  });
}

/** The test-only language model of test/fixtures/fake-lm-extension: it records every request and answers as scripted. */
export interface FakeLm {
  calls: { model: string; messages: vscode.LanguageModelChatMessage[]; options: { tools?: { name: string }[] } }[];
  setResponder(fn: (messages: vscode.LanguageModelChatMessage[], options: unknown, token: vscode.CancellationToken) => unknown): void;
  /** What @foreign (a participant that is not ours) was asked, and what invoking the MCP tool gave it. */
  foreign: { prompt: string; toolFound: boolean; text?: string; error?: string; done: boolean }[];
  setAvailable(available: boolean): void;
  reset(): void;
}

/** The demo model's extension (demo/model): how many requests reached it, and a switch. */
export interface DemoModel {
  readonly requests: number;
  setAvailable(available: boolean): void;
}

export async function activateDemoModel(): Promise<DemoModel> {
  const model = (await vscode.extensions.getExtension('mcp-host-demo.mcp-host-demo-model')!.activate()) as DemoModel;
  await waitFor(async () => (await vscode.lm.selectChatModels(DEMO_MODEL)).length > 0, 'the demo model');
  return model;
}

/** Activates the fake model's extension; resolves once VS Code offers the model. */
export async function activateFakeLm(): Promise<FakeLm> {
  const lm = (await vscode.extensions.getExtension('mcp-host-test.fake-lm-extension')!.activate()) as FakeLm;
  await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'mcphost-fake-lm' })).length > 0, 'the fake model');
  return lm;
}

export const FAKE_MODEL = { vendor: 'mcphost-fake-lm', id: 'fake-model' };
/** The demo model of `npm run demo` (demo/model), loaded beside the extension in these tests too. */
export const DEMO_MODEL = { vendor: 'mcphost-demo', id: 'demo-model' };

/**
 * Sends a query to chat (Ask mode) with a given model; resolves with @mcp's transcript of it once the response is
 * complete (or at once, with `wait: false`).
 */
export async function askChat(
  api: TestedHost,
  query: string,
  options: { model?: { vendor: string; id: string }; wait?: boolean; sameChat?: boolean } = {},
): Promise<ChatTranscript> {
  const before = api.testing.chatTranscripts().length;
  if (!options.sameChat) await vscode.commands.executeCommand('workbench.action.chat.newChat');
  void vscode.commands.executeCommand('workbench.action.chat.open', { query, mode: 'ask', modelSelector: options.model ?? FAKE_MODEL });
  const transcript = await waitFor(() => api.testing.chatTranscripts()[before], `@mcp to receive "${query}"`);
  if (options.wait !== false) await waitFor(() => transcript.done, `the response to "${query}"`, 60_000);
  return transcript;
}

/** The Markdown @mcp wrote into a response. */
export const transcriptMarkdown = (t: ChatTranscript): string =>
  t.parts
    .filter((p) => p.startsWith('markdown: '))
    .map((p) => p.slice('markdown: '.length))
    .join('');

/**
 * Runs the fixture workspace's server-everything if it is not running yet, and resolves with its id once it offers
 * `tool`, which it does only when the host declared `capability`.
 */
export async function everythingOffering(api: TestedHost, tool: string, capability: string): Promise<string> {
  const everything = await waitFor(() => api.getServers().find((s) => s.name === 'everything'), 'everything configured');
  if (everything.state.kind !== 'running') await api.testing.startServer(everything.id);
  await waitFor(
    () => api.getServer(everything.id)?.features.tools.some((t) => t.name === tool),
    `server-everything offers ${tool} (${capability} declared)`,
  );
  return everything.id;
}

/** The first folder's .vscode/mcp.json: suites rewrite it and put the fixture's version back when done. */
export class WorkspaceConfig {
  private constructor(
    readonly uri: vscode.Uri,
    private readonly original: string,
  ) {}

  static async read(): Promise<WorkspaceConfig> {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.vscode', 'mcp.json');
    return new WorkspaceConfig(uri, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
  }

  /** The fixture's servers, a fresh copy each time for a test to change. Its mcp.json has comments and trailing commas. */
  servers() {
    return JSON.parse(this.original.replace(/\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1')).servers;
  }

  write(text: string) {
    return vscode.workspace.fs.writeFile(this.uri, new TextEncoder().encode(text));
  }

  writeServers(servers: Record<string, unknown>, inputs?: unknown[]) {
    return this.write(JSON.stringify({ servers, inputs }, null, 2));
  }

  restore() {
    return this.write(this.original);
  }
}

/**
 * Accepts every step of the Call Tool form (each field as preset, once the form has asked for it: `asked` are the
 * field names the suite's `formFieldPreset` answer has seen), then its review: "Run <tool>".
 */
export async function submitCallForm(asked: () => string[], fields: string[]): Promise<void> {
  for (const field of fields) {
    await waitFor(() => asked().includes(field), `the form to ask for "${field}"`);
    await sleep(300);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  await sleep(800);
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

/** A tree item's label, as text. */
const labelText = (item: vscode.TreeItem): string => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

/** The first row under `parent` (the root when undefined) of the Servers view whose label (and description) match. */
export async function serversTreeChild(api: TestedHost, parent: unknown, label: RegExp, description?: RegExp): Promise<{ node: unknown; item: vscode.TreeItem }> {
  const tree = api.testing.serversTree;
  for (const node of (await tree.getChildren(parent as never)) ?? []) {
    const item = await tree.getTreeItem(node);
    if (label.test(labelText(item)) && (!description || description.test(String(item.description ?? '')))) return { node, item };
  }
  throw new Error(`no row ${label} ${description ?? ''} under ${parent ? 'the node' : 'the root'}:\n${api.testing.renderServersTree().join('\n')}`);
}

/** A server's row in the Servers view, wherever the view puts it (under its folder, or at the top with one folder). */
export async function serverTreeRow(api: TestedHost, name: string): Promise<unknown> {
  const tree = api.testing.serversTree;
  for (const top of (await tree.getChildren()) ?? []) {
    if (labelText(await tree.getTreeItem(top)) === name) return top;
    for (const node of (await tree.getChildren(top as never)) ?? []) if (labelText(await tree.getTreeItem(node)) === name) return node;
  }
  throw new Error(`no ${name} server row:\n${api.testing.renderServersTree().join('\n')}`);
}
