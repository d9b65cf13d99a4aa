// What a confined server's sandbox does, told to the user: each denial the runtime reports in a notification with
// "Allow and Restart", which writes the exact rule into the server's mcp.json (the edit restarts it; answers to one
// file are written one after another), or why no rule is offered; and where this machine cannot
// confine it, the question whether to run it unconfined, asked once per definition in this window (never assumed).
// And `dev.debug` (./editorDebugger.ts): the editor's debugger attached, or a notice that there is none.
import vscode = require('vscode');
import { plainText } from '../../core/presentation/serverText';
import type { ConnectionFactory } from '../../core/host/connectionPort';
import { describeDenial } from '../../core/config/sandboxDenial';
import { createConnection } from '../../core/protocol/serverConnection.lazy';
import { addSandboxRule, ruleText } from '../../core/protocol/launch/sandboxRuleEdit.lazy';
import type { StartedProcess } from '../../core/protocol/launch/serverProcess.lazy';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { attachEditorDebugger } from '../devMode/editorDebugger.lazy';

/** Servers told (once per definition in this window) that they start without the debugger `dev.debug` asks for. */
const toldNoDebugger = new Set<string>();

function noticeNoDebugger(serverName: string, hash: string, why: string): void {
  if (toldNoDebugger.has(hash)) return;
  toldNoDebugger.add(hash);
  void vscode.window.showWarningMessage(`MCP server "${plainText(serverName)}": ${why}`);
}

/** The answers to "Run Unconfined?", by definition hash: a changed definition is asked again. */
const unconfinedAnswers = new Map<string, Promise<boolean>>();

/**
 * The protocol layer's connections, with the sandbox's questions and notices going through `dialogs`; `startedProcess`,
 * the process the launch bundle started from the definition's plan, is taken by the connection.
 */
export function confinedConnection(
  dialogs: HostDialogs,
  ...[definition, log, secrets, options, events, startedProcess]: [...Parameters<ConnectionFactory>, StartedProcess?]
): ReturnType<ConnectionFactory> {
  const serverName = definition.name;
  const debug = definition.plan?.kind === 'stdio' ? definition.plan.debug : undefined;
  const debugged = debug && debug.unavailable === undefined;
  if (debug?.unavailable !== undefined) noticeNoDebugger(serverName, definition.hash, `"dev.debug" (${debug.type}) is set, but it starts without a debugger: ${debug.unavailable}`);
  return createConnection(definition, log, secrets, {
    ...options,
    // A server paused in the debugger is not dead: no health checks.
    ...(debugged ? { attachDebugger: attachEditorDebugger, pingIntervalMs: 0 } : {}),
    runUnconfined: (_d, reason) => {
      const known = unconfinedAnswers.get(definition.hash);
      if (known) return known;
      const answer = dialogs.confirmSandbox({ kind: 'unconfined', serverName, reason }).then(
        (a) => {
          // A dismissed question is asked again at the next start; a yes or a no stands for this window.
          if (a === undefined) unconfinedAnswers.delete(definition.hash);
          return a === true;
        },
        () => (unconfinedAnswers.delete(definition.hash), false),
      );
      unconfinedAnswers.set(definition.hash, answer);
      return answer;
    },
  }, {
    ...events,
    sandboxDenied: (denial) => {
      events.sandboxDenied?.(denial);
      const rule = ruleText(denial);
      const file = definition.scope.configPath;
      void dialogs.confirmSandbox({ kind: 'denial', serverName, denied: describeDenial(denial), rule, ...(denial.refused ? { refused: denial.refused } : {}), configPath: file }).then(async (allow) => {
        if (!allow || !rule) return;
        await addSandboxRule(file, denial, definition.scope.configSection);
        log.info(`Added ${rule} to ${file}: the server restarts with it.`);
      }).catch((e: Error) => log.error(`Could not add the sandbox rule: ${e.message}`));
    },
  }, startedProcess);
}
