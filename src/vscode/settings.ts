// The extension's settings, read when they are needed; the host's own (read at each server's start) are kept until a
// setting changes: inspecting them costs the extension host more than the rest of a start's work of ours.
import vscode = require('vscode');
import { NUMERIC_SETTINGS, numericSetting } from '../core/config/numericSettings';
import type { HostSettings } from '../core/host/serverManager';
import { userValue } from '../core/config/tightenedSettings';

/** Where out-of-range settings are reported (the MCP Host log). */
let warn: (message: string) => void = () => undefined;

export function reportSettingProblems(report: (message: string) => void): void {
  warn = report;
}

/** A numeric setting in its range (see NUMERIC_SETTINGS), from the section it lives in. */
export function readNumber(section: Pick<vscode.WorkspaceConfiguration, 'get'>, key: string, setting: (typeof NUMERIC_SETTINGS)[keyof typeof NUMERIC_SETTINGS]): number {
  return numericSetting(section.get<unknown>(key), setting, warn);
}

let hostSettings: HostSettings | undefined;
let watching: vscode.Disposable | undefined;

export function readSettings(): HostSettings {
  watching ??= vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('mcpHost')) hostSettings = undefined;
  });
  return (hostSettings ??= readHostSettings());
}

function readHostSettings(): HostSettings {
  const c = vscode.workspace.getConfiguration('mcpHost');
  // Only the user's (or the machine's) own value counts: a workspace must never trust servers on its own behalf.
  return {
    autoStart: c.get<boolean>('autoStart', true),
    trustAllServers: userValue<boolean | undefined>(c, 'trustAllServers').user === true,
    initializeTimeoutMs: readNumber(c, 'initializeTimeout', NUMERIC_SETTINGS.initializeTimeout) * 1000,
    requestTimeoutMs: readNumber(c, 'requestTimeout', NUMERIC_SETTINGS.requestTimeout) * 1000,
    pingIntervalMs: readNumber(c, 'ping.interval', NUMERIC_SETTINGS.pingInterval) * 1000,
    pingTimeoutMs: readNumber(c, 'ping.timeout', NUMERIC_SETTINGS.pingTimeout) * 1000,
    // On demand unless the user says otherwise: known servers stay dormant until used (see docs/configuration.md).
    startup: c.get('servers.startup') === 'eager' ? 'eager' : 'onDemand',
    startEagerly: [c.get<unknown>('servers.startEagerly')].flat().filter((n): n is string => typeof n === 'string'),
    idleStopMs: readNumber(c, 'servers.idleStopMinutes', NUMERIC_SETTINGS.idleStopMinutes) * 60_000,
  };
}
