// A server's log whose sink (in VS Code, a LogOutputChannel) is made only when first needed: when the user asks to see
// it, or at the first warning or error. Until then the lines wait in memory, the newest kept up to a cap, and go into
// the sink with the time each was logged. Making a LogOutputChannel costs the extension host a log file, its folder
// and a logger: servers starting together paid it for channels nobody opened.
import { Emitter, type Disposable, type Event } from './events';
import type { LogLevelName, ServerLog } from './log';

/** What a deferred log writes to once it is needed. */
export type LogSink = ServerLog & Disposable;

/** The level a log has before its sink exists (VS Code's default log level), and its changes. */
export interface DefaultLogLevel {
  readonly level: LogLevelName;
  readonly onDidChange: Event<LogLevelName>;
}

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** Where a level stands, most verbose first (a log at a level shows the lines at it and after it). */
const ORDER = ['trace', 'debug', 'info'];

/** The most characters of lines one log keeps before its sink exists; older lines go first. */
export const MAX_PENDING_CHARS = 128 * 1024;

interface PendingLine {
  level: Level;
  text: string;
  at: number;
}

/** `HH:MM:SS.mmm` in local time. */
const clock = (at: number) => `${new Date(at).toTimeString().slice(0, 8)}.${String(at % 1000).padStart(3, '0')}`;

export class DeferredLog<Sink extends LogSink = LogSink> implements ServerLog, Disposable {
  private sink: Sink | undefined;
  private pending: PendingLine[] = [];
  /** Where the kept lines begin in `pending` (the ones before it were dropped). */
  private first = 0;
  private pendingChars = 0;
  private dropped = 0;
  private disposed = false;
  private readonly levelChanged = new Emitter<LogLevelName>();
  private readonly subscriptions: Disposable[] = [];
  readonly onDidChangeLogLevel: Event<LogLevelName> = this.levelChanged.event;

  private readonly now: () => number;

  constructor(
    private readonly openSink: () => Sink,
    private readonly defaultLevel: DefaultLogLevel,
    /** `onDispose`: told when the log is disposed (its factory forgets it). */
    private readonly options: { now?: () => number; onDispose?: () => void } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.subscriptions.push(defaultLevel.onDidChange((level) => this.sink || this.levelChanged.fire(level)));
  }

  get logLevel(): LogLevelName {
    return this.sink ? this.sink.logLevel : this.defaultLevel.level;
  }

  // Bound: callers pass these on as functions.
  readonly trace = (message: string): void => this.write('trace', message);
  readonly debug = (message: string): void => this.write('debug', message);
  readonly info = (message: string): void => this.write('info', message);
  readonly warn = (message: string): void => this.write('warn', message);
  readonly error = (message: string): void => this.write('error', message);

  /** The sink, made now if it was not yet, with the lines that waited for it. */
  open(): Sink {
    if (this.sink) return this.sink;
    if (this.disposed) throw new Error('the log was disposed');
    const before = this.defaultLevel.level;
    const sink = (this.sink = this.openSink());
    this.subscriptions.push(sink.onDidChangeLogLevel((level) => this.levelChanged.fire(level)));
    if (this.dropped) sink.info(`(${this.dropped} earlier line${this.dropped === 1 ? '' : 's'} not kept: only the last ${MAX_PENDING_CHARS / 1024} KB wait for the log to open)`);
    // The channel's own time is now: "logged at" tells it from when the line happened.
    for (let i = this.first; i < this.pending.length; i++) sink[this.pending[i].level](`(logged at ${clock(this.pending[i].at)}) ${this.pending[i].text}`);
    this.pending = [];
    this.first = 0;
    this.pendingChars = 0;
    this.dropped = 0;
    if (sink.logLevel !== before) this.levelChanged.fire(sink.logLevel);
    return sink;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.options.onDispose?.();
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.levelChanged.dispose();
    this.pending = [];
    this.sink?.dispose();
  }

  private write(level: Level, text: string): void {
    if (this.disposed) return;
    if (this.sink) return this.sink[level](text);
    // A warning or an error is what a user may come looking for: the channel is there for it in the Output view.
    if (level === 'warn' || level === 'error') return this.open()[level](text);
    // Below the level (ORDER has no place for the levels that show no such line: warning, error, off).
    const shown = ORDER.indexOf(this.defaultLevel.level);
    if (shown < 0 || ORDER.indexOf(level) < shown) return;
    this.pending.push({ level, text, at: this.now() });
    this.pendingChars += text.length;
    // The oldest lines go by moving `first`; the array is cut once half of it is gone (a flood of lines stays linear).
    while (this.pendingChars > MAX_PENDING_CHARS && this.first < this.pending.length - 1) {
      this.pendingChars -= this.pending[this.first++].text.length;
      this.dropped++;
    }
    if (this.first > 1024 && this.first * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.first);
      this.first = 0;
    }
  }
}
