// The unit suites' leak check (loaded by .mocharc.unit.json): a listener a test adds to one of the core's emitters must
// be gone when the test and its own afterEach hooks are done, removed or with its emitter disposed. A listener left on
// an emitter that lives on keeps whatever it holds alive, and hears what it should not: VS Code opens each of its MCP
// test suites with the same check (ensureNoDisposablesAreLeakedInTestSuite). Leaks are gathered per test and reported
// once all tests ran (a failing root hook would skip every test after it).
import { trackListeners } from '../../src/core/common/events';

/** Listeners added and not ended yet, with where each was added. */
let live = new Map<object, string>();
/** Each leaking test, with where its listeners were added. */
const leaks: { test: string; where: string[] }[] = [];

/** Where the listeners added since the current test began and still live were added (tests of the check itself). */
export const liveListeners = (): string[] => [...live.values()];

export const mochaHooks = {
  beforeEach(): void {
    const added = new Map<object, string>();
    live = added;
    trackListeners({
      added: (listener) => added.set(listener, new Error().stack?.split('\n').slice(3, 7).join('\n') ?? ''),
      ended: (listener) => added.delete(listener),
    });
  },
  afterEach(this: Mocha.Context): void {
    trackListeners(undefined);
    if (live.size) leaks.push({ test: this.currentTest?.fullTitle() ?? '?', where: [...live.values()] });
    live = new Map();
  },
  afterAll(): void {
    if (!leaks.length) return;
    const report = leaks.map((l) => `${l.test}: ${l.where.length} listener(s), the first added\n${l.where[0]}`).join('\n\n');
    throw new Error(`${leaks.length} test(s) left event listeners behind (remove them, or dispose their emitter):\n\n${report}`);
  },
};
