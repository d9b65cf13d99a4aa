// `dev.debug` in the launch plan: the runtime's debugger arguments put in front of the server's (VS Code's own), so
// the trust question shows them and the launcher runs them. Node: `--inspect-brk` on 127.0.0.1 (the server waits at
// its first line for the editor's debugger, which attaches and lets it run). debugpy: the server runs under debugpy,
// which connects to the editor's debugger (listening first) and waits for it.
import * as path from 'path';
import type { DebuggerSupport, PlannedDebug } from '../../config/launchPlan';
import type { DevDebugConfig } from '../../config/serverDefinition';
import { LaunchPlanError } from './launchPlanError.lazy';

export const DEBUG_HOST = '127.0.0.1';

/** The commands each type debugs, as VS Code checks them: the debugger's arguments are the runtime's own. */
const RUNTIME: Record<DevDebugConfig['type'], { pattern: RegExp; name: string }> = {
  node: { pattern: /^node[0-9]*(\.exe)?$/i, name: 'node' },
  debugpy: { pattern: /^python[0-9.]*(\.exe)?$/i, name: 'python' },
};

export interface DebuggedCommand {
  command: string;
  /** The debugger's arguments, put before the server's. */
  added: string[];
  debug: PlannedDebug;
}

/** The command and arguments a start under `config` runs (a confined server's ports are its own: none); throws LaunchPlanError for a command the debugger cannot start. */
export function planDebug(config: DevDebugConfig, command: string, support: DebuggerSupport | undefined, confined = false): DebuggedCommand {
  const runtime = RUNTIME[config.type];
  const base = path.basename(command.replace(/\\/g, '/'));
  if (!runtime.pattern.test(base)) {
    throw new LaunchPlanError(`"dev.debug" of type "${config.type}" needs "command": "${runtime.name}" (the debugger's arguments are ${runtime.name}'s own), not ${JSON.stringify(command)}.`);
  }
  const unavailable = confined ? 'it runs confined ("sandboxEnabled"): no debugger can reach it.' : !support ? 'no debugger can attach here (MCP Host runs without VS Code).' : !support.types.includes(config.type) ? missingDebugger(config.type) : undefined;
  if (unavailable || !support) return { command, added: [], debug: { type: config.type, host: DEBUG_HOST, port: 0, addedArgs: 0, unavailable, identity: `${config.type} unavailable` } };
  const at = `${DEBUG_HOST}:${support.port}`;
  let added: string[];
  let debugCommand = command;
  if (config.type === 'node') added = [`--inspect-brk=${at}`];
  else {
    const debugpy = ['--connect', at, '--wait-for-client'];
    if (config.type === 'debugpy' && config.debugpyPath) {
      debugCommand = config.debugpyPath;
      added = debugpy;
    } else added = support.debugpyPackage ? [support.debugpyPackage, ...debugpy] : ['-m', 'debugpy', ...debugpy];
  }
  const identity = JSON.stringify([config.type, debugCommand, ...added.map((a) => a.replace(at, `${DEBUG_HOST}:<port>`))]);
  return { command: debugCommand, added, debug: { type: config.type, host: DEBUG_HOST, port: support.port, addedArgs: added.length, identity } };
}

function missingDebugger(type: DevDebugConfig['type']): string {
  return type === 'debugpy'
    ? 'VS Code has no Python debugger here (install the Python Debugger extension, ms-python.debugpy).'
    : "VS Code has no JavaScript debugger here (its built-in JavaScript Debugger, ms-vscode.js-debug, is disabled or missing).";
}
