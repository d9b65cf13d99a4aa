// One log output channel per server ("MCP: <name>"), kept across restarts.
import vscode = require('vscode');
import type { Disposable } from '../core/common/events';
import type { LogLevelName, ServerLog, ServerLogFactory } from '../core/common/log';

const LEVELS: Record<vscode.LogLevel, LogLevelName> = {
  [vscode.LogLevel.Off]: 'off',
  [vscode.LogLevel.Trace]: 'trace',
  [vscode.LogLevel.Debug]: 'debug',
  [vscode.LogLevel.Info]: 'info',
  [vscode.LogLevel.Warning]: 'warning',
  [vscode.LogLevel.Error]: 'error',
};

export class ServerOutputChannels implements ServerLogFactory {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  create(serverId: string, serverName: string): ServerLog & Disposable {
    const taken = new Set([...this.channels.values()].map((c) => c.name));
    let name = `MCP: ${serverName}`;
    for (let n = 2; taken.has(name); n++) name = `MCP: ${serverName} (${n})`;
    const channel = vscode.window.createOutputChannel(name, { log: true });
    this.channels.set(serverId, channel);
    return {
      trace: (m) => channel.trace(m),
      debug: (m) => channel.debug(m),
      info: (m) => channel.info(m),
      warn: (m) => channel.warn(m),
      error: (m) => channel.error(m),
      get logLevel() {
        return LEVELS[channel.logLevel];
      },
      onDidChangeLogLevel: (listener) => channel.onDidChangeLogLevel((l) => listener(LEVELS[l])),
      dispose: () => {
        this.channels.delete(serverId);
        channel.dispose();
      },
    };
  }

  show(serverId: string): boolean {
    const channel = this.channels.get(serverId);
    channel?.show(true);
    return !!channel;
  }
}
