// Issue 39, attacks and broken promises in the rules themselves: what Allow and Restart offers after a denial (never
// what a program on PATH runs, never a folder), and rules written where their file format reads them (a .mcp.json's
// sandbox block, Import Servers… of a confined server).
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { readForeignConfig } from '../../src/core/config/foreignConfigs';
import { referencedInputIds } from '../../src/core/config/variables';
import { emptySandboxConfig } from '../../src/core/config/sandboxConfig';
import { describeDenial } from '../../src/core/config/sandboxDenial';
import { withRule } from '../../src/core/protocol/launch/sandboxDenials.lazy';
import { ruleText, withSandboxRule } from '../../src/core/protocol/launch/sandboxRuleEdit.lazy';
import { waitFor } from './helpers';
import { serverState } from './hostTestKit';
import { attackWorld, text } from './attacks39Kit';

describe('issue 39: Allow and Restart offers only an exact file that nothing outside runs, and a rule is written where its file is read', function () {
  this.timeout(120_000);
  const world = attackWorld();
  let root = '', home = '', ws = '', storage = '';
  beforeEach(() => ({ root, home, ws, storage } = world));
  const { startConfined, run } = world;

  it('"Allow and Restart" offers the file a program on PATH links to (a user-owned global npm: bin/npx -> ../lib/node_modules/npm/bin/npx-cli.js)', () => {
    // A Node installed in a folder of the user's outside the home folder (as with a tarball in /opt, or Homebrew on Linux).
    const prefix = path.join(root, 'opt', 'node');
    const cli = path.join(prefix, 'lib', 'node_modules', 'npm', 'bin', 'npx-cli.js');
    fs.mkdirSync(path.dirname(cli), { recursive: true });
    fs.writeFileSync(cli, '// npx\n');
    fs.mkdirSync(path.join(prefix, 'bin'));
    fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(prefix, 'bin', 'npx'));
    const sandbox = { home, hidden: [home], readable: [ws], writable: [ws], storage, notWritable: [], domains: [], deniedDomains: [] };
    // The runtime's denial of a write the confined server tried there.
    const denial = withRule({ kind: 'write', path: cli }, sandbox, [path.join(prefix, 'bin'), '/usr/bin'].join(':'));
    assert.ok(denial.allow === undefined, `offered: ${ruleText(denial)}; the next unconfined npx would run what the server writes there`);
  });

  it('a confined server (default rules) that tries mkdir on a folder of the home folder (~/code, the user\'s other repositories) is offered that whole folder by "Allow and Restart"; once allowed, it writes another repository\'s .npmrc', async () => {
    const other = path.join(home, 'code', 'other-repo');
    fs.mkdirSync(other, { recursive: true });
    assert.strictEqual(spawnSync('git', ['init', '-q'], { cwd: other }).status, 0);
    const call = await startConfined();
    // Inside the sandbox the home folder is an empty copy: the folder does not exist there, the mkdir is reported.
    await run(call, `mkdir -p ${JSON.stringify(path.join(home, 'code'))}`);
    const offered = await waitFor(() => (serverState(world.kit!, 'hostile')?.sandboxDenials ?? []).find((d) => d.kind === 'write' && d.allow !== undefined), 'a denial with a rule', 10_000).catch(() => undefined);
    await world.kit!.manager.disposeAsync();
    world.kit = undefined;
    if (!offered) return;
    // "Allow and Restart": the rule written, the server started again with it.
    const sandbox = emptySandboxConfig();
    sandbox.filesystem.allowWrite.push(offered.allow!);
    const again = await startConfined({ sandbox });
    const w = await again('write', { path: path.join(other, '.npmrc'), text: 'script-shell=/tmp/evil.sh\n' });
    assert.ok(w.isError, `offered ${describeDenial(offered)} → ${ruleText(offered)}; then another repository's .npmrc was writable: ${text(w)}`);
  });

  it('(not an attack: a broken promise) "Allow and Restart" for a server of a .mcp.json writes a sandbox block that file format ignores: the restarted server is refused again', () => {
    const file = '{ "mcpServers": { "s": { "command": "node", "sandboxEnabled": true } } }\n';
    const edited = withSandboxRule(file, { kind: 'network', host: 'api.example.com', port: 443, allow: 'api.example.com' });
    const parsed = parseMcpConfig(edited, { format: 'mcpServers' });
    const server = parsed.servers[0].server;
    assert.ok(server.type === 'stdio');
    assert.deepStrictEqual(server.sandbox?.network.allowedDomains, ['api.example.com'], `the rule is not read back: ${parsed.diagnostics.map((d) => d.message).join('; ')}`);
  });

  it('(not an attack: rules lost) Import Servers… of a confined server from VS Code\'s user mcp.json copies its file\'s sandbox rules into the entry, where they are ignored: its denyWrite and deniedDomains are gone', () => {
    const vscodeFile = '{ "servers": { "fs": { "command": "npx", "sandboxEnabled": true } }, "sandbox": { "filesystem": { "denyWrite": ["/srv/prod"] }, "network": { "deniedDomains": ["evil.example.com"] } } }';
    const { candidates } = readForeignConfig(vscodeFile, { kind: 'vscode', label: 'VS Code', path: '/x/mcp.json' }, { parse: (t) => parseMcpConfig(t), referencedInputIds });
    const imported = parseMcpConfig(JSON.stringify({ servers: { fs: candidates[0].entry } }));
    const server = imported.servers[0].server;
    assert.ok(server.type === 'stdio');
    assert.deepStrictEqual(server.sandbox?.filesystem.denyWrite, ['/srv/prod'], imported.diagnostics.map((d) => d.message).join('; '));
  });
});
