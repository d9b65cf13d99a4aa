// Issue 39, attacks of one confined server on another's protection: two confined servers of one folder (one's end
// removed the placeholders both relied on; the second did not start), and a server allowed to write the temp dir
// rewriting the runtime settings of the next start. Played for real (bubblewrap, npm, git).
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { emptySandboxConfig } from '../../src/core/config/sandboxConfig';
import { waitFor } from './helpers';
import { entry, serverState, workspaceScope } from './hostTestKit';
import { attackWorld } from './attacks39Kit';

describe('issue 39: confined servers started together or one after another cannot undo each other\'s protection', function () {
  this.timeout(120_000);
  const world = attackWorld();
  let home = '', ws = '';
  beforeEach(() => ({ home, ws } = world));
  const { userEnv, planted, ran, repository, confined, newKit, callOf, run } = world;

  it('a confined server next to another confined server of the same folder writes .vscode/mcp.json and .npmrc once the other one stops (its launcher removes the placeholders both were protected by)', async () => {
    // A repository that uses Claude Code (its .claude/commands and .claude/agents committed): without them the second
    // confined server of a folder does not start at all while the first runs (see the next test).
    for (const d of ['commands', 'agents']) {
      fs.mkdirSync(path.join(ws, '.claude', d), { recursive: true });
      fs.writeFileSync(path.join(ws, '.claude', d, 'README.md'), 'x\n');
    }
    fs.writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ name: 'ws', version: '1.0.0', scripts: { hello: 'echo hello' } }));
    repository();
    world.kit = newKit();
    // Two servers of one mcp.json, both run confined ("Run All 2 Confined"): the first starts, then the second.
    await world.kit.update(workspaceScope(ws), [entry('first', confined())], []);
    await callOf('first');
    await world.kit.update(workspaceScope(ws), [entry('first', confined()), entry('hostile', confined())], []);
    const call = await callOf('hostile');
    const vscodeMcp = path.join(ws, '.vscode', 'mcp.json');
    assert.ok((await call('write', { path: vscodeMcp, text: '{}', parents: true })).isError, 'protected while both run');
    // The first one stops (it was stopped, its definition changed, or it exits on its own: it may be the attacker's too).
    await world.kit.update(workspaceScope(ws), [entry('hostile', confined())], []);
    const evil = path.join(ws, 'evil.sh');
    await call('write', { path: evil, text: `#!/bin/sh\n${planted()}\nexec /bin/sh "$@"\n`, mode: 0o755 });
    const wrote = await waitFor(async () => !(await call('write', { path: path.join(ws, '.npmrc'), text: `script-shell=${evil}\n` })).isError, '.npmrc writable', 5000).catch(() => false);
    await call('write', { path: vscodeMcp, text: '{ "servers": { "planted": { "command": "sh", "args": ["-c", "touch planted"] } } }', parents: true });
    await world.kit.manager.disposeAsync();
    world.kit = undefined;
    assert.ok(!wrote || fs.existsSync(path.join(ws, '.npmrc')));
    spawnSync('npm', ['run', '--silent', 'hello'], { cwd: ws, env: userEnv(), encoding: 'utf8' });
    assert.ok(!fs.existsSync(vscodeMcp) || !fs.readFileSync(vscodeMcp, 'utf8').includes('planted'), `.vscode/mcp.json written by a confined server: ${fs.existsSync(vscodeMcp) && fs.readFileSync(vscodeMcp, 'utf8')}`);
    assert.ok(!ran(), 'the .npmrc a confined server wrote made the next unconfined npm run execute its script-shell');
  });

  it('two confined servers of one folder (no .claude there) both run: the second does not fail to start because of the first one\'s placeholders', async () => {
    repository();
    world.kit = newKit();
    world.kit.settings.trustAllServers = true;
    await world.kit.update(workspaceScope(ws), [entry('first', confined())], []);
    await callOf('first');
    await world.kit.update(workspaceScope(ws), [entry('first', confined()), entry('second', confined())], []);
    const second = await waitFor(() => ['running', 'error', 'crashed', 'blocked'].includes(serverState(world.kit!, 'second')?.state.kind ?? '') && serverState(world.kit!, 'second'), 'the second start to end', 60_000);
    assert.strictEqual(second.state.kind, 'running', `${JSON.stringify(second.state)}\n${world.kit.log('second').text.split('\n').filter((l) => /bwrap|refused|sandbox/i.test(l)).join('\n')}`);
  });

  it('a confined server whose file allows the temp dir (home outside the temp dir) rewrites the runtime settings of the next confined start, which then writes the real home folder', async function () {
    if (world.base === os.tmpdir()) this.skip();
    const tmp = fs.realpathSync(os.tmpdir());
    // Swaps the settings file of the next start of this test's workspace (and no other) for rules that allow the home folder.
    const swapper = path.join(ws, 'swap.cjs');
    fs.writeFileSync(swapper, `
const fs = require('fs'), path = require('path');
const evil = JSON.stringify({ network: { allowedDomains: [], deniedDomains: [] }, filesystem: { denyRead: [], allowRead: [], allowWrite: [{ path: ${JSON.stringify(home)}, literal: true }], denyWrite: [] } });
const done = new Set();
const tryDir = (d) => {
  if (done.has(d) || !d.startsWith('mcp-host-sandbox-')) return;
  const f = path.join(${JSON.stringify(tmp)}, d, 'settings.json');
  let t; try { t = fs.readFileSync(f, 'utf8'); } catch { return; }
  if (!t.includes(${JSON.stringify(path.join(ws, 'victim-cwd'))})) return;
  try { fs.writeFileSync(f, evil); done.add(d); } catch {}
};
fs.watch(${JSON.stringify(tmp)}, (e, n) => n && tryDir(String(n)));
setInterval(() => fs.readdirSync(${JSON.stringify(tmp)}).forEach(tryDir), 2);
setTimeout(() => process.exit(0), 30000);
`);
    fs.mkdirSync(path.join(ws, 'victim-cwd'));
    const sandbox = emptySandboxConfig();
    sandbox.filesystem.allowWrite.push(tmp);
    world.kit = newKit();
    // "helper" may write the temp dir ("writes only ~/ws, /tmp": harmless-looking); "main" has the default rules.
    await world.kit.update(workspaceScope(ws), [entry('helper', confined({ sandbox }))], []);
    const helper = await callOf('helper');
    const r = await run(helper, `${JSON.stringify(process.execPath)} swap.cjs > /dev/null 2>&1 &`);
    assert.strictEqual(r.status, 0, r.stderr);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await world.kit.update(workspaceScope(ws), [entry('helper', confined({ sandbox })), entry('main', confined({ cwd: path.join(ws, 'victim-cwd') }))], []);
    const main = await callOf('main');
    const target = path.join(home, 'PLANTED-IN-HOME');
    await main('write', { path: target, text: 'written from a confined server' });
    await world.kit.manager.disposeAsync();
    world.kit = undefined;
    assert.ok(!fs.existsSync(target), 'a confined server wrote the real home folder: its settings file (in the temp dir) was replaced by another confined server');
  });
});
