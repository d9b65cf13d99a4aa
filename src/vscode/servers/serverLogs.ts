// One log output channel per server ("MCP: <name>"), kept across restarts. The channel is made when first needed (Show
// Output, or the server's first warning or error; see DeferredLog): until then its lines wait in memory.
import vscode = require('vscode');
import type { Disposable } from '../../core/common/events';
import { DeferredLog, type DefaultLogLevel, type LogSink } from '../../core/common/deferredLog';
import type { LogLevelName, ServerLog, ServerLogFactory } from '../../core/common/log';

const LEVELS: Record<vscode.LogLevel, LogLevelName> = {
  [vscode.LogLevel.Off]: 'off',
  [vscode.LogLevel.Trace]: 'trace',
  [vscode.LogLevel.Debug]: 'debug',
  [vscode.LogLevel.Info]: 'info',
  [vscode.LogLevel.Warning]: 'warning',
  [vscode.LogLevel.Error]: 'error',
};

/**
 * VS Code's default log level, what a new log channel starts at: kept, and read again only when it changes. Each
 * message a server sends or receives asks it (to trace the traffic or not), and reading `vscode.env.logLevel` goes
 * through the API's accessor each time.
 */
let currentDefault: LogLevelName | undefined;
const defaultLevel: DefaultLogLevel = {
  get level() {
    if (currentDefault === undefined) {
      currentDefault = LEVELS[vscode.env.logLevel];
      vscode.env.onDidChangeLogLevel((l) => (currentDefault = LEVELS[l]));
    }
    return currentDefault;
  },
  onDidChange: (listener) =>
    vscode.env.onDidChangeLogLevel((l) => {
      // Set before the listener runs, which may read it.
      currentDefault = LEVELS[l];
      listener(currentDefault);
    }),
};

export class ServerOutputChannels implements ServerLogFactory {
  private readonly logs = new Map<string, DeferredLog<ChannelSink>>();
  private readonly names = new Set<string>();

  create(serverId: string, serverName: string): ServerLog & Disposable {
    let name = `MCP Host: ${serverName}`;
    for (let n = 2; this.names.has(name); n++) name = `MCP Host: ${serverName} (${n})`;
    this.names.add(name);
    const log = new DeferredLog(() => channelSink(name), defaultLevel, {
      onDispose: () => {
        this.logs.delete(serverId);
        this.names.delete(name);
      },
    });
    this.logs.set(serverId, log);
    return log;
  }

  show(serverId: string): boolean {
    const log = this.logs.get(serverId);
    log?.open().show(true);
    return !!log;
  }
}

type ChannelSink = LogSink & { show(preserveFocus: boolean): void };

function channelSink(name: string): ChannelSink {
  const channel = vscode.window.createOutputChannel(name, { log: true });
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
    show: (preserveFocus) => channel.show(preserveFocus),
    dispose: () => channel.dispose(),
  };
}
