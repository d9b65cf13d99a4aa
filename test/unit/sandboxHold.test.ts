// The placeholders of confined starts: made by the host before the runtime looks (so that the runtime makes none of
// its own, which its process would remove while other servers rely on them), counted across starts, removed with the
// last one; and the runtime's own list of denies mirrored exactly (checked against the runtime's exports).
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { emptySandboxConfig } from '../../src/core/config/sandboxConfig';
import type { RawServer } from '../../src/core/config/serverDefinition';
import { planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { PlaceholderRegistry } from '../../src/core/protocol/launch/placeholderRegistry.lazy';
import { RUNTIME_FILES, RUNTIME_FOLDERS } from '../../src/core/protocol/launch/sandboxHold.lazy';
import { sandboxSupport } from '../../src/core/protocol/launch/sandboxRuntime.lazy';
import { fixtureServer, repoRoot } from './helpers';
import { createKit, entry, serverState, waitForState, workspaceScope, type Kit } from './hostTestKit';

const probe = fixtureServer('sandbox-probe-server.mjs');

describe('confined starts hold their placeholders together: made by the host, counted across starts, removed with the last', function () {
  this.timeout(120_000);
  let root: string;
  let ws: string;
  let storage: string;
  let kit: Kit | undefined;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-hold-')));
    ws = path.join(root, 'home', 'ws');
    storage = path.join(root, 'home', '.storage');
    fs.mkdirSync(ws, { recursive: true });
  });
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    kit = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  const none = { snapshot: () => null, aftermath: () => [] };

  it('a placeholder stays while any holder holds it, goes with the last, and a file of the user\'s (empty) is never removed', () => {
    const registry = new PlaceholderRegistry(path.join(storage, 'placeholders'));
    fs.writeFileSync(path.join(ws, '.npmrc'), '');
    const wanted = [{ path: path.join(ws, '.vscode'), folder: true }, { path: path.join(ws, '.mcp.json'), folder: false }, { path: path.join(ws, '.npmrc'), folder: false }, { path: path.join(ws, '.git', 'config'), folder: false }];
    registry.acquire('a', wanted, [ws], none);
    registry.acquire('b', wanted, [ws], none);
    assert.ok(fs.statSync(path.join(ws, '.vscode')).isDirectory() && fs.statSync(path.join(ws, '.git', 'config')).isFile());
    registry.release('a', none);
    for (const w of wanted) assert.ok(fs.existsSync(w.path), `${w.path} went while b holds it`);
    registry.release('b', none);
    assert.deepStrictEqual(fs.readdirSync(ws), ['.npmrc'], 'only the user\'s own file stays');
  });

  it('the holders of a process that is gone are dropped, and what only they held is removed', () => {
    const registry = new PlaceholderRegistry(path.join(storage, 'placeholders'));
    registry.acquire('gone', [{ path: path.join(ws, '.idea'), folder: true }], [ws], none);
    const file = path.join(storage, 'placeholders', 'state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    state.holders.gone.pid = Number(dead);
    fs.writeFileSync(file, JSON.stringify(state));
    registry.acquire('other', [], [], none);
    assert.ok(!fs.existsSync(path.join(ws, '.idea')));
  });

  it('the runtime\'s own denies in the working directory are the ones mirrored here', () => {
    const utils = path.join(repoRoot, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'dist', 'sandbox', 'sandbox-utils.js');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { DANGEROUS_FILES, getDangerousDirectories } from ${JSON.stringify(utils)}; console.log(JSON.stringify([DANGEROUS_FILES, getDangerousDirectories()]))`], { encoding: 'utf8' });
    assert.strictEqual(r.status, 0, r.stderr);
    const [files, folders] = JSON.parse(r.stdout) as [string[], string[]];
    assert.deepStrictEqual([...RUNTIME_FILES].sort(), [...files].sort());
    assert.deepStrictEqual([...RUNTIME_FOLDERS].sort(), [...folders].sort());
  });

  it('the runtime makes no placeholder of its own, in a folder with no repository, with a repository and one below, with a .claude of its own, and with a denyWrite of the file', async function () {
    const support = sandboxSupport();
    assert.ok(support.ok, support.ok ? '' : support.reason);
    fs.mkdirSync(path.join(ws, 'sub'));
    fs.mkdirSync(path.join(ws, '.claude'));
    fs.writeFileSync(path.join(ws, '.claude', 'settings.json'), '{}');
    const layouts: (() => void)[] = [
      () => undefined,
      () => {
        for (const dir of [ws, path.join(ws, 'sub')]) spawnSync('git', ['init', '-q'], { cwd: dir });
        fs.rmSync(path.join(ws, 'sub', '.git', 'hooks'), { recursive: true, force: true });
      },
    ];
    for (const layout of layouts) {
      layout();
      const before = fs.readdirSync(ws).sort();
      const sandbox = emptySandboxConfig();
      sandbox.filesystem.denyWrite.push(path.join(ws, 'private.txt'));
      const server: RawServer = { type: 'stdio', command: process.execPath, args: [probe], env: {}, sandboxEnabled: true, sandbox };
      kit = createKit({ environment: { ...process.env, SRT_DEBUG: '1' }, planLaunch: (source) => planLaunch({ ...source, sandboxStorage: storage }) });
      await kit.update(workspaceScope(ws), [entry('a', server), entry('b', server)], []);
      for (const name of ['a', 'b']) await waitForState(kit, name, 'running', 60_000).catch(() => assert.fail(`${name}: ${JSON.stringify(serverState(kit!, name)?.state)}\n${kit!.log(name).text}`));
      assert.ok(kit.log('a').text.includes('[SandboxDebug]'), 'the runtime says what it mounts');
      const made = ['a', 'b'].flatMap((name) => kit!.log(name).text.split('\n').filter((l) => /to block creation of|Cleaned up bwrap mount point/.test(l)));
      await kit.manager.disposeAsync();
      kit = undefined;
      assert.deepStrictEqual(made, [], 'the runtime made placeholders of its own');
      assert.deepStrictEqual(fs.readdirSync(ws).sort(), before, 'a placeholder was left behind');
      assert.ok(!fs.existsSync(path.join(ws, 'sub', '.git', 'hooks')) || layout === layouts[0]);
    }
  });
});
