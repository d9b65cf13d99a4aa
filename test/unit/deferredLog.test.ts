// A server's log is made only when needed (Show Output, a warning or an error): the lines before wait in memory, capped,
// and reach the sink in order with the time each was logged; the level follows VS Code's default until then.
import * as assert from 'assert';
import { Emitter } from '../../src/core/common/events';
import { DeferredLog, MAX_PENDING_CHARS, type LogSink } from '../../src/core/common/deferredLog';
import type { LogLevelName } from '../../src/core/common/log';

class RecordingSink implements LogSink {
  lines: string[] = [];
  disposed = false;
  readonly levelChanged = new Emitter<LogLevelName>();
  readonly onDidChangeLogLevel = this.levelChanged.event;
  constructor(public logLevel: LogLevelName = 'info') {}
  trace = (m: string) => this.lines.push(`trace ${m}`);
  debug = (m: string) => this.lines.push(`debug ${m}`);
  info = (m: string) => this.lines.push(`info ${m}`);
  warn = (m: string) => this.lines.push(`warn ${m}`);
  error = (m: string) => this.lines.push(`error ${m}`);
  dispose = () => void (this.disposed = true);
}

/** Every log a test made: disposed after it (each listens to its default level and its sink). */
const made: DeferredLog[] = [];

function setup(level: LogLevelName = 'info', sinkLevel: LogLevelName = level) {
  const defaults = new Emitter<LogLevelName>();
  const defaultLevel = { level, onDidChange: defaults.event };
  const sinks: RecordingSink[] = [];
  // 2026-11-25 09:08:07.006 local time
  const log = new DeferredLog(() => sinks[sinks.push(new RecordingSink(sinkLevel)) - 1], defaultLevel, { now: () => new Date(2026, 10, 25, 9, 8, 7, 6).getTime() });
  made.push(log);
  return { log, sinks, defaults, defaultLevel };
}

describe('DeferredLog', () => {
  afterEach(() => made.splice(0).forEach((log) => log.dispose()));

  it('makes no sink for lines below a warning, and hands them over in order, with their time, when opened', () => {
    const { log, sinks } = setup();
    log.info('Starting');
    log.debug('not at this level');
    log.info('Connected');
    assert.strictEqual(sinks.length, 0, 'no channel yet');
    const sink = log.open();
    assert.strictEqual(sinks.length, 1);
    assert.deepStrictEqual(sink.lines, ['info (logged at 09:08:07.006) Starting', 'info (logged at 09:08:07.006) Connected']);
    log.info('later');
    assert.deepStrictEqual(sink.lines.slice(2), ['info later'], 'written straight through once opened');
    assert.strictEqual(log.open(), sink, 'one sink');

    const quiet = setup('warning');
    quiet.log.info('below the level');
    assert.deepStrictEqual(quiet.log.open().lines, [], 'a line the channel would not show is not kept');
  });

  it('opens at the first warning or error, so the channel is there when something goes wrong', () => {
    const { log, sinks } = setup();
    log.info('Starting');
    log.warn('careful');
    assert.strictEqual(sinks.length, 1);
    assert.deepStrictEqual(sinks[0].lines, ['info (logged at 09:08:07.006) Starting', 'warn careful']);
    const other = setup();
    other.log.error('broken');
    assert.deepStrictEqual(other.sinks[0].lines, ['error broken']);
  });

  it('keeps only the newest lines up to its cap, and says how many it did not keep', () => {
    const { log } = setup();
    const line = 'x'.repeat(1000);
    const count = Math.ceil(MAX_PENDING_CHARS / 1000) + 10;
    for (let i = 0; i < count; i++) log.info(`${i} ${line}`);
    const sink = log.open() as RecordingSink;
    assert.match(sink.lines[0], /^info \(\d+ earlier lines not kept: only the last 128 KB wait for the log to open\)$/);
    const kept = sink.lines.slice(1);
    const keptChars = kept.reduce((n, l) => n + l.length - 'info (logged at 09:08:07.006) '.length, 0);
    assert.ok(keptChars <= MAX_PENDING_CHARS, `${keptChars} characters kept`);
    assert.ok(kept[kept.length - 1].startsWith(`info (logged at 09:08:07.006) ${count - 1} `), 'the newest line kept');
    const dropped = Number(/\((\d+) earlier/.exec(sink.lines[0])![1]);
    assert.strictEqual(dropped + kept.length, count, 'every line either kept or counted');

    // A flood (a server writing stderr in a loop): thousands dropped, the kept ones the newest, in order.
    const flood = setup();
    const lines = 20_000;
    for (let i = 0; i < lines; i++) flood.log.info(`${String(i).padStart(6, '0')} ${'y'.repeat(93)}`);
    const out = (flood.log.open() as RecordingSink).lines;
    const numbers = out.slice(1).map((l) => Number(l.slice('info (logged at 09:08:07.006) '.length, 'info (logged at 09:08:07.006) '.length + 6)));
    assert.strictEqual(numbers[numbers.length - 1], lines - 1);
    assert.ok(numbers.every((n, i) => i === 0 || n === numbers[i - 1] + 1), 'contiguous, oldest first');
    assert.strictEqual(Number(/\((\d+) earlier/.exec(out[0])![1]) + numbers.length, lines);
    assert.ok(numbers.length * 100 <= MAX_PENDING_CHARS && numbers.length * 100 > MAX_PENDING_CHARS - 100, `${numbers.length} lines kept`);
  });

  it("follows VS Code's default level until opened, then the channel's own", () => {
    const { log, defaults, defaultLevel } = setup('info', 'debug');
    const seen: LogLevelName[] = [];
    log.onDidChangeLogLevel((l) => seen.push(l));
    assert.strictEqual(log.logLevel, 'info');
    (defaultLevel as { level: LogLevelName }).level = 'trace';
    defaults.fire('trace');
    assert.strictEqual(log.logLevel, 'trace');
    log.trace('traffic');
    const sink = log.open() as RecordingSink;
    assert.strictEqual(log.logLevel, 'debug', "the channel's level");
    sink.levelChanged.fire('error');
    defaults.fire('info');
    assert.deepStrictEqual(seen, ['trace', 'debug', 'error'], 'default changes no longer count once the channel exists');
    assert.deepStrictEqual(sink.lines, ['trace (logged at 09:08:07.006) traffic']);
  });

  it('disposes the sink with it, and writes nothing after', () => {
    const { log, sinks } = setup();
    log.open();
    log.dispose();
    assert.ok(sinks[0].disposed);
    log.error('late');
    assert.deepStrictEqual(sinks[0].lines, []);
    const unopened = setup();
    unopened.log.dispose();
    unopened.log.error('late');
    assert.strictEqual(unopened.sinks.length, 0, 'an error after dispose makes no channel');
    assert.throws(() => unopened.log.open(), /disposed/);

    let forgotten = 0;
    const told = new DeferredLog(() => new RecordingSink(), { level: 'info', onDidChange: new Emitter<LogLevelName>().event }, { onDispose: () => forgotten++ });
    const { warn } = told; // passed on as a function, unbound
    warn('careful');
    assert.deepStrictEqual((told.open() as RecordingSink).lines, ['warn careful']);
    told.dispose();
    told.dispose();
    assert.strictEqual(forgotten, 1, 'its factory told once');
  });
});
