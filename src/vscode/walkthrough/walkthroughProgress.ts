// The walkthrough's steps tick when the user did the thing, whichever way they did it (the Servers view, the Command
// Palette, chat, an agent), not when a button of the walkthrough was clicked: package.json's completionEvents wait for
// these context keys (`onContext:mcpHost.did.<step>`).
import vscode = require('vscode');
import type { Disposable, Event } from '../../core/common/events';
import type { ServerInfo } from '../../core/host/serverInfo';

export type WalkthroughStep = 'runServer' | 'callTool' | 'runPrompt';

/** The step is done: its context key is set (again: a walkthrough reset is followed by the next time it is done). */
export function walkthroughStepDone(step: WalkthroughStep): void {
  void vscode.commands.executeCommand('setContext', `mcpHost.did.${step}`, true);
}

/** Follows the servers (the first one running: trusted and started) and the tool calls of every surface. */
export function followWalkthrough(servers: { servers(): ServerInfo[]; onDidChangeServers: Event<unknown> }, toolCalls: { onDidBegin: Event<unknown> }): Disposable[] {
  let ran = false;
  return [
    servers.onDidChangeServers(() => ran || ((ran = servers.servers().some((s) => s.state.kind === 'running')) && walkthroughStepDone('runServer'))),
    toolCalls.onDidBegin(() => walkthroughStepDone('callTool')),
  ];
}
