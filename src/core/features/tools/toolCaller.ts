// Runs one MCP tool call: progress reported as it comes, the configured timeout restarted by progress, and
// cancellation that reaches the server (the SDK sends notifications/cancelled when the signal aborts).
import type { CallToolResult, Progress } from '@modelcontextprotocol/client';
import type { ActiveToolCalls } from '../../host/activeToolCalls';
import type { SessionPort } from '../../host/serverSession';
import type { Tool } from '../../host/types';

export interface ToolCall {
  serverId: string;
  tool: Tool;
  arguments: Record<string, unknown>;
  /** Human words for where the call comes from, e.g. `@mcp in chat: "…"` (shown by sampling dialogs). */
  origin: string;
  signal?: AbortSignal;
  onProgress?(progress: Progress): void;
}

export class ToolCaller {
  constructor(
    private readonly sessions: SessionPort,
    private readonly activeCalls: ActiveToolCalls,
  ) {}

  /**
   * The server's result, `isError` results included. Protocol errors, timeouts and a stopped server reject;
   * cancellation rejects with the signal's reason.
   */
  call(call: ToolCall): Promise<CallToolResult> {
    let end: (() => void) | undefined;
    try {
      const session = this.sessions.session(call.serverId);
      end = this.activeCalls.begin({ serverId: call.serverId, toolName: call.tool.name, origin: call.origin });
      return session.callTool({ name: call.tool.name, arguments: call.arguments }, { signal: call.signal, onProgress: call.onProgress, tool: call.tool }).finally(end);
    } catch (e) {
      // A server that is not running (or a session that just ended) rejects, as every other failure does.
      end?.();
      return Promise.reject(e as Error);
    }
  }
}
