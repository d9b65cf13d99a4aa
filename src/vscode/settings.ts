// The extension's settings, read fresh each time they are needed.
import * as vscode from 'vscode';
import type { HostSettings } from '../core/host/serverRegistry';

export function readSettings(): HostSettings {
  const c = vscode.workspace.getConfiguration('mcpHost');
  // Only the user's (or the machine's) own value counts: a workspace must never trust servers on its own behalf.
  const trustAll = c.inspect<boolean>('trustAllServers');
  return {
    autoStart: c.get<boolean>('autoStart', true),
    trustAllServers: trustAll?.globalValue ?? false,
    initializeTimeoutMs: Math.max(1, c.get<number>('initializeTimeout', 30)) * 1000,
    requestTimeoutMs: Math.max(1, c.get<number>('requestTimeout', 60)) * 1000,
    pingIntervalMs: Math.max(0, c.get<number>('ping.interval', 60)) * 1000,
    pingTimeoutMs: Math.max(1, c.get<number>('ping.timeout', 10)) * 1000,
  };
}
