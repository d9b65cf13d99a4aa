// What the activation side and the view panel (./appViewPanel.lazy.ts) share about MCP App views: the call a view shows, what
// a panel is given, and what AppViews needs of an open panel.
import type * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolCaller } from '../../core/features/tools/toolCaller';
import type { ToolConsent } from '../../core/features/tools/toolConsent';
import type { ServerSession, SessionPort } from '../../core/host/serverSession';
import type { Tool } from '../../core/host/serverInfo';
import type { HostDialogs } from '../dialogs/dialogRouter';

/** A finished tool call whose tool has a view. */
export interface ToolCallRecord {
  serverId: string;
  serverName: string;
  tool: Tool;
  arguments: Record<string, unknown>;
  result: CallToolResult;
}

export interface AppViewsDeps {
  sessions: SessionPort;
  /** The server's session while it runs (a view ends with it). */
  runningSession(serverId: string): ServerSession | undefined;
  consent: ToolConsent;
  caller: ToolCaller;
  dialogs: HostDialogs;
  extensionUri: vscode.Uri;
  hostVersion: string;
}

/** What tests see of an open view. */
export interface AppViewInfo {
  serverId: string;
  toolName: string;
  /** loading → shown, or error/closed with the text shown in the view's place. */
  state: 'loading' | 'shown' | 'error' | 'closed';
  message?: string;
  /** The height the view last asked for, as bounded. */
  height?: number;
  /** The editor column the view is in. */
  column?: number;
}

/** An open view, as AppViews keeps it. */
export interface AppView extends vscode.Disposable {
  readonly disposed: boolean;
  readonly viewColumn: vscode.ViewColumn | undefined;
  readonly onDidDispose: vscode.Event<void>;
  reveal(): void;
  start(): Promise<void>;
  info(): AppViewInfo;
}

/** Opens a view of `call` (in `column`, or beside the active editor). */
export type OpenAppView = (call: ToolCallRecord, deps: AppViewsDeps, column: vscode.ViewColumn | undefined) => AppView;
