// Extension-host side of scripts/screenshots.mjs: sets up the demo workspace as a newcomer sees it after a minute —
// servers trusted and running, a tool called, the demo model asked in chat — and has the launcher take screenshots of
// the real workbench for the README (media/screenshot-*.png).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpHostApi, McpHostTestingApi } from '../../../src/vscode/publicApi';
import { testLog } from '../index';
import { pageRequest } from '../pageRequests';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(check: () => T | undefined | false, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export async function run(): Promise<void> {
  const out = process.env.MCPHOST_TEST_SCREENSHOT_DIR;
  if (!out) throw new Error('MCPHOST_TEST_SCREENSHOT_DIR is not set');
  const api = (await vscode.extensions.getExtension('mcp-host.mcp-host')!.activate()) as McpHostApi & { testing: McpHostTestingApi };
  await vscode.extensions.getExtension('mcp-host-demo.mcp-host-demo-model')!.activate();
  // Trust is answered here: modal dialogs cannot show in an extension test.
  api.testing.useDialogs({ confirmTrust: async () => true, confirmTrustMany: async () => 'all', confirmToolCall: async () => 'once' });
  const everything = await until(() => api.getServers().find((s) => s.name === 'everything'), 'the demo server');
  if (everything.state.kind !== 'running') await api.testing.startServer(everything.id);
  await until(() => api.getServer(everything.id)?.state.kind === 'running', 'everything running');

  // The MCP view: the server with its tools, and a tool's result beside it.
  await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  await vscode.commands.executeCommand('mcpHost.servers.focus');
  await sleep(1500);
  await pageRequest({ action: 'click', selector: '.monaco-list-row:has-text("Tools (")' });
  await vscode.commands.executeCommand('mcpHost.callTool', everything.id, 'get-sum', { a: 2, b: 3 });
  await sleep(2500);
  await pageRequest({ action: 'screenshot', path: path.join(out, 'screenshot-mcp-view.png') });
  testLog('took screenshot-mcp-view.png');

  // Chat: the demo model asked through @mcp calls the server's tool.
  const before = api.testing.chatTranscripts().length;
  void vscode.commands.executeCommand('workbench.action.chat.open', {
    query: '@mcp what is 2 + 3?',
    mode: 'ask',
    modelSelector: { vendor: 'mcphost-demo', id: 'demo-model' },
  });
  const transcript = await until(() => api.testing.chatTranscripts()[before], 'the chat request');
  await until(() => transcript.done, 'the answer');
  await sleep(2500);
  await pageRequest({ action: 'screenshot', path: path.join(out, 'screenshot-chat.png') });
  testLog('took screenshot-chat.png');
}
