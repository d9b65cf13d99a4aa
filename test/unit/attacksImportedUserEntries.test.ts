// Issue 40: what Import Servers… and the registry's Install for User write into the user's files started with no trust
// question at every VS Code start (Restricted Mode included); the user had seen a preview, not what would run. Such an
// entry now asks the trust question at its first start, as a workspace's entries do, and runs as the user's others once
// trusted.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { sandboxSupport } from '../../src/core/protocol/launch/sandboxRuntime.lazy';
import type { TrustAnswer } from '../../src/core/host/hostPorts';
import type { RawServer } from '../../src/core/config/serverDefinition';
import { FirstStartMarks } from '../../src/core/host/firstStartMarks';
import { EitherStore } from '../../src/core/host/eitherStore';
import { SharedStateFile, sharedStateDir } from '../../src/core/host/sharedStateFile.lazy';
import { settingsProblem } from '../../src/core/protocol/launch/sandboxProtection.lazy';
import { fixtureServer } from './helpers';
import { blockOf, createKit, entry, MemoryStore, serverState, stdio, userScope, waitForState, type Kit } from './hostTestKit';

const planted = () => stdio(process.execPath, [fixtureServer('basic-server.mjs')]);

describe('attack: an entry imported into the user file runs at every start without a question', function () {
  this.timeout(30_000);
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    kit = undefined;
  });

  const kitWithMarks = (store = new MemoryStore()) => {
    const firstStarts = new FirstStartMarks(store);
    kit = createKit({ firstStarts }, { trustAllServers: false });
    return { kit, firstStarts };
  };

  it('asks the trust question at the first start of an imported entry, even in Restricted Mode, and nothing runs on a "no"', async () => {
    const { kit, firstStarts } = kitWithMarks();
    kit.workspaceTrusted = false;
    await firstStarts.mark(userScope.key, ['imported']);
    kit.trustAnswers.push(false);
    await kit.update(userScope, [entry('imported', planted())], []);
    assert.deepStrictEqual(kit.trustAsked, ['imported'], 'asked about before it ran');
    assert.strictEqual(blockOf(serverState(kit, 'imported'))?.reason, 'untrusted', 'refused: not started');
    assert.ok(firstStarts.has(userScope.key, 'imported'), 'still to be asked: a "no" is no trust');
  });

  it('runs a trusted imported entry, and asks nothing at the next start (it is then one of the user\'s entries)', async () => {
    const store = new MemoryStore();
    const { kit, firstStarts } = kitWithMarks(store);
    await firstStarts.mark(userScope.key, ['imported']);
    kit.trustAnswers.push(true);
    await kit.update(userScope, [entry('imported', planted())], []);
    await waitForState(kit, 'imported', 'running');
    assert.deepStrictEqual(kit.trustAsked, ['imported']);
    assert.ok(!firstStarts.has(userScope.key, 'imported'), 'the mark is gone once trusted');
    await kit.manager.get(serverState(kit, 'imported')!.id)!.restart();
    await waitForState(kit, 'imported', 'running');
    assert.deepStrictEqual(kit.trustAsked, ['imported'], 'not asked again');
  });

  it("asks nothing for the user's own entries (written by hand), as VS Code does", async () => {
    const { kit } = kitWithMarks();
    await kit.update(userScope, [entry('mine', planted())], []);
    await waitForState(kit, 'mine', 'running');
    assert.deepStrictEqual(kit.trustAsked, []);
  });

  it('keeps marks in a store that garbage or another type in it cannot break', async () => {
    const store = new MemoryStore();
    await store.update('mcpHost.firstStartMarks', { not: 'a list' });
    const marks = new FirstStartMarks(store);
    assert.strictEqual(marks.has(userScope.key, 'x'), false);
    await marks.mark(userScope.key, ['x', 'y']);
    await marks.mark(userScope.key, ['x']);
    assert.ok(marks.has(userScope.key, 'x') && marks.has(userScope.key, 'y'));
    assert.ok(!marks.has('another file', 'x'), 'per file');
    await marks.clear(userScope.key, 'x');
    assert.ok(!marks.has(userScope.key, 'x') && marks.has(userScope.key, 'y'));
  });

  it('attack: "Run Confined" whose write into the file fails leaves the entry to run unconfined, unasked, at the next start', async function () {
    if (!sandboxSupport().ok) this.skip();
    const store = new MemoryStore();
    const firstStarts = new FirstStartMarks(store);
    await firstStarts.mark(userScope.key, ['imported']);
    // The file cannot take "sandboxEnabled": true (read-only, or changed meanwhile): this start runs confined.
    const asked: string[] = [];
    const answers: TrustAnswer[] = ['confined'];
    const trustPrompt = {
      askTrust: (d: { name: string }) => (asked.push(d.name), Promise.resolve(answers.shift())),
      persistConfined: () => Promise.reject(new Error('read-only file')),
    };
    const first = createKit({ firstStarts, trustPrompt }, { trustAllServers: false }, store);
    kit = first;
    await first.update(userScope, [entry('imported', planted())], []);
    await waitForState(first, 'imported', 'running');
    assert.deepStrictEqual(asked, ['imported']);
    assert.strictEqual(serverState(first, 'imported')?.confined, true, 'this start runs confined');
    await first.manager.disposeAsync();
    // VS Code starts again: the file still says what the user did not trust (unconfined).
    const next = createKit({ firstStarts }, { trustAllServers: false }, store);
    kit = next;
    next.trustAnswers.push(false);
    await next.update(userScope, [entry('imported', planted())], []);
    assert.deepStrictEqual(next.trustAsked, ['imported'], 'the unconfined plan, never accepted, is asked about');
    assert.strictEqual(blockOf(serverState(next, 'imported'))?.reason, 'untrusted', 'and not run on a "no"');
  });

  it('attack: an import of more entries than marks are kept pushes an earlier entry\'s mark out, and it runs unasked', async () => {
    const store = new MemoryStore();
    const firstStarts = new FirstStartMarks(store);
    await firstStarts.mark(userScope.key, ['imported']);
    // A planted source with thousands of entries, all picked (one click): the import must not forget "imported".
    const many = Array.from({ length: 5000 }, (_, i) => `decoy-${i}`);
    const accepted = await firstStarts.mark('file:///home/ada/.copilot/mcp-config.json', many).then(
      () => true,
      () => false,
    );
    kit = createKit({ firstStarts }, { trustAllServers: false }, store);
    kit.trustAnswers.push(false);
    await kit.update(userScope, [entry('imported', planted())], []);
    assert.deepStrictEqual(kit.trustAsked, ['imported'], `still asked about (the big import ${accepted ? 'was marked' : 'was refused'})`);
    assert.strictEqual(blockOf(serverState(kit, 'imported'))?.reason, 'untrusted');
    assert.ok(!accepted || many.every((n) => firstStarts.has('file:///home/ada/.copilot/mcp-config.json', n)), 'what was marked is all marked');
  });

  it('"Run Confined" whose write succeeds: the next start, with "sandboxEnabled": true in the file, asks nothing, and the mark is gone', async function () {
    if (!sandboxSupport().ok) this.skip();
    const store = new MemoryStore();
    const firstStarts = new FirstStartMarks(store);
    await firstStarts.mark(userScope.key, ['imported']);
    const asked: string[] = [];
    const answers: TrustAnswer[] = ['confined'];
    const trustPrompt = { askTrust: (d: { name: string }) => (asked.push(d.name), Promise.resolve(answers.shift())), persistConfined: () => Promise.resolve() };
    kit = createKit({ firstStarts, trustPrompt }, { trustAllServers: false }, store);
    await kit.update(userScope, [entry('imported', planted())], []);
    await waitForState(kit, 'imported', 'running');
    // What persistConfined wrote, read back by the configuration loader.
    const confinedInFile: RawServer = { ...(planted() as Extract<RawServer, { type: 'stdio' }>), sandboxEnabled: true };
    await kit.update(userScope, [entry('imported', confinedInFile)], []);
    await waitForState(kit, 'imported', 'running');
    // The next start (VS Code's next, here a restart) finds the confined plan trusted.
    await kit.manager.get(serverState(kit, 'imported')!.id)!.restart();
    await waitForState(kit, 'imported', 'running');
    assert.deepStrictEqual(asked, ['imported'], 'asked once');
    assert.strictEqual(serverState(kit, 'imported')?.confined, true);
    assert.ok(!firstStarts.has(userScope.key, 'imported'), 'trusted as confined: the mark is gone');
  });

  it('attack: an imported entry\'s ${command:…} runs the VS Code command at VS Code start, before any question, Restricted Mode included', async () => {
    const store = new MemoryStore();
    const firstStarts = new FirstStartMarks(store);
    await firstStarts.mark(userScope.key, ['imported']);
    const ran: string[] = [];
    const askedCommands: string[] = [];
    const trustPrompt = {
      askTrust: () => Promise.resolve(false),
      askRunCommand: (q: { command: string }) => (askedCommands.push(q.command), Promise.resolve(false)),
    };
    // What a planted ~/.cursor/mcp.json can hold, and Import writes as it is.
    const hostile = stdio(process.execPath, [fixtureServer('basic-server.mjs'), '${command:workbench.action.terminal.sendSequence}']);
    kit = createKit({ firstStarts, trustPrompt, runCommand: async (command) => (ran.push(command), 'x') }, { trustAllServers: false }, store);
    kit.workspaceTrusted = false;
    await kit.update(userScope, [entry('imported', hostile)], []);
    await kit.manager.idle();
    assert.deepStrictEqual(askedCommands, ['workbench.action.terminal.sendSequence'], 'the command is asked about first, as a workspace file\'s is');
    assert.deepStrictEqual(ran, [], 'refused: the command did not run');
    assert.notStrictEqual(serverState(kit, 'imported')?.state.kind, 'running');
  });
});

describe('attack: an entry imported into ~/.copilot/mcp-config.json from one VS Code profile runs unasked in another', function () {
  this.timeout(30_000);
  let kit: Kit | undefined;
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-marks-'));
  });
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    kit = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  /** A profile's marks: its own store (VS Code's global state, per profile) and the file every profile shares. */
  const profileMarks = (file = path.join(dir, 'mcp-host', 'first-start-marks.json')) => new FirstStartMarks(new EitherStore([new MemoryStore(), new SharedStateFile(file)]));

  it('asks the trust question in the second profile, whose own store never saw the import', async () => {
    const imported = profileMarks();
    await imported.mark(userScope.key, ['imported']);
    const other = profileMarks();
    kit = createKit({ firstStarts: other }, { trustAllServers: false });
    kit.trustAnswers.push(false);
    await kit.update(userScope, [entry('imported', planted())], []);
    assert.deepStrictEqual(kit.trustAsked, ['imported'], 'asked about before it ran');
    assert.strictEqual(blockOf(serverState(kit, 'imported'))?.reason, 'untrusted');
  });

  it('once trusted in one profile, it runs unasked in the other; a broken shared file loses no mark the profile knew', async () => {
    const file = path.join(dir, 'mcp-host', 'first-start-marks.json');
    const first = profileMarks(file);
    await first.mark(userScope.key, ['imported']);
    await first.clear(userScope.key, 'imported');
    assert.ok(!profileMarks(file).has(userScope.key, 'imported'), 'trusted everywhere once trusted');

    const warnings: string[] = [];
    const profile = new MemoryStore();
    const marks = new FirstStartMarks(new EitherStore([profile, new SharedStateFile(file, (m) => warnings.push(m))]));
    await marks.mark(userScope.key, ['kept']);
    fs.writeFileSync(file, '{ not json');
    assert.ok(marks.has(userScope.key, 'kept'), "the profile's own store still holds it");
    assert.match(warnings.join('\n'), /Could not read .*first-start-marks\.json/);
  });

  it('a confined server given the shared marks folder to write never gets it (it would clear the marks): under ~/.local/state, or $XDG_STATE_HOME anywhere', () => {
    const ctx = { home: '/home/ada', storage: '/home/ada/.config/Code/User/globalStorage/mcp-host', env: { XDG_STATE_HOME: '/srv/state' } };
    assert.match(settingsProblem(sharedStateDir({}, 'linux', '/home/ada'), ctx) ?? '', /among the settings in your home folder/);
    assert.match(settingsProblem(sharedStateDir(ctx.env, 'linux', '/home/ada'), ctx) ?? '', /among your settings \(\/srv\/state\)/);
  });

  it('keeps the shared file in the user state folder (XDG_STATE_HOME, else ~/.local/state; LOCALAPPDATA on Windows)', () => {
    assert.strictEqual(sharedStateDir({ XDG_STATE_HOME: '/x/state' }, 'linux', '/home/u'), path.join('/x/state', 'mcp-host'));
    assert.strictEqual(sharedStateDir({}, 'darwin', '/home/u'), path.join('/home/u', '.local', 'state', 'mcp-host'));
    assert.strictEqual(sharedStateDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u'), path.join('C:\\Users\\u\\AppData\\Local', 'mcp-host'));
  });
});
