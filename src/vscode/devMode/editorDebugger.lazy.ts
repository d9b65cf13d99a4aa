// `dev.debug` in VS Code: the debug session attached to a server started under a debugger (VS Code's own configs:
// js-debug attaches to node's inspector and lets it run; debugpy connects to the Python debugger, listening first).
// Stopping the server ends the session; a session the user ends stops the server (DevModeWatcher), so that a server
// started for debugging never runs on unseen.
import { randomUUID } from 'crypto';
import * as net from 'net';
import vscode = require('vscode');
import type { PlannedDebug } from '../../core/config/launchPlan';
import type { ServerDefinition } from '../../core/config/serverDefinition';
import type { ServerLog } from '../../core/common/log';
import type { DebuggerAttachment } from '../../core/host/connectionPort';

/** The key of our debug configurations that says which start a session belongs to. */
const MARKER = '__mcpHostServer';
/** How long js-debug keeps trying to reach node's inspector (it starts a moment after the session). */
const NODE_ATTACH_TIMEOUT_MS = 30_000;
const END_WAIT_MS = 3000;
/** How long the debugpy adapter may take to listen. */
const LISTEN_WAIT_MS = 30_000;

const endedByUser = new vscode.EventEmitter<{ serverId: string; name: string }>();
/** A debug session of a server's start ended by the user (or the debugger), not by the server stopping. */
export const onDebugSessionEndedByUser = endedByUser.event;

export async function attachEditorDebugger(definition: ServerDefinition, debug: PlannedDebug, log: ServerLog): Promise<DebuggerAttachment> {
  const token = randomUUID();
  const folderPath = definition.scope.folderPath;
  const folder = folderPath ? vscode.workspace.getWorkspaceFolder(vscode.Uri.file(folderPath)) : undefined;
  const common = { name: `MCP: ${definition.name}`, request: 'attach', internalConsoleOptions: 'neverOpen', suppressMultipleSessionWarning: true, [MARKER]: token };
  const config: vscode.DebugConfiguration =
    debug.type === 'node'
      ? { ...common, type: 'node', address: debug.host, port: debug.port, timeout: NODE_ATTACH_TIMEOUT_MS, continueOnAttach: true }
      : { ...common, type: 'debugpy', listen: { host: debug.host, port: debug.port } };
  let session: vscode.DebugSession | undefined;
  /** Ended by the server's stop; `over`: the session has terminated. */
  let ended = false;
  let over = false;
  const subscriptions = [
    vscode.debug.onDidStartDebugSession((s) => {
      if (s.configuration[MARKER] !== token) return;
      // js-debug's first session is the one we asked for; the target's comes under it.
      session ??= s;
      // The server stopped before its debugger got there.
      if (ended) void vscode.debug.stopDebugging(s);
    }),
    vscode.debug.onDidTerminateDebugSession((s) => {
      if (s.configuration[MARKER] !== token) return;
      over = true;
      dispose();
      if (!ended) {
        log.info('The debug session ended.');
        endedByUser.fire({ serverId: definition.id, name: definition.name });
      }
    }),
  ];
  const dispose = () => subscriptions.splice(0).forEach((d) => d.dispose());
  const started = Promise.resolve(vscode.debug.startDebugging(folder, config, { suppressDebugView: true })).then(
    (ok) => ok || Promise.reject(new Error(`VS Code did not start the ${debug.type} debug session.`)),
  );
  if (debug.type === 'debugpy') {
    // debugpy connects to the debugger: it must listen before the server starts. The session may start only once
    // debugpy has connected, so, as VS Code does, whichever comes first: the session, or its port taken.
    await Promise.race([started, untilListening(debug.host, debug.port)]).catch((e: Error) => {
      dispose();
      throw e;
    });
  } else {
    // js-debug waits for node's inspector, which listens once the process starts (right after this).
    started.catch((e: Error) => {
      dispose();
      if (!ended) log.error(`${e.message} The server waits for a debugger at its first line: stop it, or remove "dev.debug".`);
    });
  }
  return {
    end: async () => {
      ended = true;
      if (over) return dispose();
      // Not started yet: stopped as soon as it starts (above), unless it never does.
      if (!session) return void started.catch(() => dispose());
      const stopped = new Promise<void>((resolve) => {
        const done = vscode.debug.onDidTerminateDebugSession((s) => s.id === session!.id && (done.dispose(), resolve()));
        setTimeout(() => (done.dispose(), resolve()), END_WAIT_MS);
      });
      await vscode.debug.stopDebugging(session);
      await stopped;
      dispose();
    },
  };
}

/** Resolves once something listens on host:port (the debug adapter), or after 30 s; polled as VS Code does, by binding. */
async function untilListening(host: string, port: number): Promise<void> {
  const deadline = Date.now() + LISTEN_WAIT_MS;
  while (Date.now() < deadline && (await isPortFree(host, port))) await new Promise((resolve) => setTimeout(resolve, 50));
}

function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}
