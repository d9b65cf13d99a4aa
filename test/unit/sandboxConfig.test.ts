import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { launchPlanHash, type StdioLaunchPlan } from '../../src/core/config/launchPlan';
import type { RawStdioServer } from '../../src/core/config/serverDefinition';
import { resolveServer } from '../../src/core/config/variables';
import { buildStdioPlan } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { describeLaunchPlan, summarizeLaunchPlan } from '../../src/core/presentation/describeLaunchPlan';
import { repoRoot } from './helpers';

const home = '/home/ada';
const folder = '/home/ada/proj';

/** A file written for VS Code: the top-level `sandbox` block and a server that sets `sandboxEnabled`. */
const vscodeFile = `{
  // as VS Code writes it
  "servers": {
    "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}"], "sandboxEnabled": true },
    "free": { "command": "node", "args": ["x.js"] }
  },
  "sandbox": {
    "filesystem": { "allowWrite": ["~/out", "\${workspaceFolder}/../shared"], "denyRead": ["\${workspaceFolder}/.env"], "denyWrite": ["/home/ada/proj/.git"] },
    "network": { "allowedDomains": ["api.github.com", "*.example.com", "example.org:443"] }
  }
}`;

async function planOf(server: RawStdioServer, isExecutable: (f: string) => boolean = (f) => f === '/usr/bin/npx' || f === '/usr/bin/node'): Promise<StdioLaunchPlan> {
  const ctx = { folderPath: folder, userHome: home, env: {}, pathSeparator: '/', resolveInput: async () => undefined };
  const { resolved } = await resolveServer(server, [], ctx);
  if (resolved.type !== 'stdio') throw new Error('stdio expected');
  return buildStdioPlan({ scope: { folderPath: folder }, resolved, shown: resolved, hostEnv: { PATH: '/usr/bin', HOME: home }, platform: 'linux', isExecutable, home });
}

describe('confined servers: VS Code\'s "sandboxEnabled" and "sandbox" keys', () => {
  it('a file written for VS Code is read without a diagnostic, the block given to the server that sets sandboxEnabled', () => {
    const parsed = parseMcpConfig(vscodeFile);
    assert.deepStrictEqual(parsed.diagnostics, []);
    const [fsServer, free] = parsed.servers.map((s) => s.server);
    assert.ok(fsServer.type === 'stdio' && free.type === 'stdio');
    assert.strictEqual(fsServer.sandboxEnabled, true);
    assert.deepStrictEqual(fsServer.sandbox, {
      filesystem: { allowWrite: ['~/out', '${workspaceFolder}/../shared'], denyRead: ['${workspaceFolder}/.env'], denyWrite: ['/home/ada/proj/.git'] },
      network: { allowedDomains: ['api.github.com', '*.example.com', 'example.org:443'], deniedDomains: [] },
    });
    assert.strictEqual(free.sandboxEnabled, undefined);
    assert.strictEqual(free.sandbox, undefined);
  });

  it('sandboxEnabled without a block: confined with the defaults', async () => {
    const parsed = parseMcpConfig('{ "servers": { "s": { "command": "node", "sandboxEnabled": true } } }');
    assert.deepStrictEqual(parsed.diagnostics, []);
    const s = parsed.servers[0].server as RawStdioServer;
    assert.strictEqual(s.sandbox, undefined);
    assert.deepStrictEqual((await planOf(s)).sandbox?.writable, [folder]);
    assert.strictEqual((await planOf(s)).sandbox?.cache?.startsWith('/home/ada/.cache/mcp-host/sandbox/'), true, 'its own package cache, not ~/.npm');
  });

  it('clear diagnostics: a URL or a phrase for a domain, a wrong type, an unknown key, a non-boolean sandboxEnabled', () => {
    const text = `{
  "servers": { "a": { "command": "node", "sandboxEnabled": "yes" }, "h": { "url": "https://h.example/mcp", "sandboxEnabled": true } },
  "sandbox": { "filesystem": { "allowWrite": "/tmp", "readOnly": [] }, "network": { "allowedDomains": ["https://api.github.com/repos", "not a domain"] }, "proxy": 1 }
}`;
    const parsed = parseMcpConfig(text);
    const byCode = (code: string) => parsed.diagnostics.filter((d) => d.code === code).map((d) => d.message);
    const such = 'is not a domain such as "api.example.com", "*.example.com" or "localhost:6379" (no scheme, no path; a wildcard needs a name with a dot after it).';
    assert.deepStrictEqual(byCode('invalid-sandbox-domain'), [`"https://api.github.com/repos" ${such}`, `"not a domain" ${such}`]);
    const wrong = byCode('wrong-type');
    assert.ok(wrong.includes('"sandboxEnabled" must be true or false, not a string.'), wrong.join('\n'));
    assert.ok(wrong.includes('"sandbox.filesystem.allowWrite" must be an array of strings, not a string.'), wrong.join('\n'));
    const unknown = byCode('unknown-property');
    assert.ok(unknown.some((m) => m.startsWith('Property "readOnly" is not used in "sandbox.filesystem"')), unknown.join('\n'));
    assert.ok(unknown.some((m) => m.startsWith('Property "proxy" is not used in "sandbox"')), unknown.join('\n'));
    assert.ok(unknown.includes('Property "sandboxEnabled" is not used by http servers; it is ignored.'), unknown.join('\n'));
    // Where it is: on the value, not the file.
    const domain = parsed.diagnostics.find((d) => d.code === 'invalid-sandbox-domain')!;
    assert.strictEqual(text.slice(domain.span.offset, domain.span.offset + domain.span.length), '"https://api.github.com/repos"');
  });

  it('a relative sandbox path is taken from the workspace folder; a variable other than ~, ${workspaceFolder}, ${userHome} refuses the plan, saying which', async () => {
    const parsed = parseMcpConfig('{ "servers": { "s": { "command": "node", "sandboxEnabled": true } }, "sandbox": { "filesystem": { "allowWrite": ["out", "${input:dir}", "${userHome}/x"] } } }');
    assert.deepStrictEqual(parsed.diagnostics, []);
    const server = parsed.servers[0].server as RawStdioServer;
    await assert.rejects(planOf(server), /"\$\{input:dir\}" in "sandbox": \$\{input:dir\} is not supported in a sandbox path/);
    const fine = { ...server, sandbox: { ...server.sandbox!, filesystem: { ...server.sandbox!.filesystem, allowWrite: ['out', '${userHome}/x'] } } };
    assert.deepStrictEqual((await planOf(fine)).sandbox?.writable.slice(-2), ['/home/ada/proj/out', '/home/ada/x']);
  });

  it('the plan: defaults plus the file\'s rules, paths resolved (~ the home folder, ${workspaceFolder}), the registry of npx', async () => {
    const server = parseMcpConfig(vscodeFile).servers[0].server as RawStdioServer;
    const plan = await planOf(server);
    assert.deepStrictEqual({ ...plan.sandbox, cache: undefined }, {
      home,
      hidden: [home, '/home/ada/proj/.env'],
      readable: [folder],
      writable: [folder, '/home/ada/out', '/home/ada/shared'],
      cache: undefined,
      storage: '/home/ada/.cache/mcp-host',
      notWritable: ['/home/ada/proj/.git'],
      domains: ['registry.npmjs.org', 'api.github.com', '*.example.com', 'example.org:443'],
      deniedDomains: [],
    });
    // npx's cache is the server's own, in the extension's storage: never ~/.npm, which unconfined npx runs from.
    assert.match(plan.sandbox?.cache ?? '', /^\/home\/ada\/\.cache\/mcp-host\/sandbox\/[0-9a-f]{16}$/);
  });

  it('a runner installed under the home folder (nvm) stays readable: its own folder, not the one above', async () => {
    const nvmNode = '/home/ada/.nvm/versions/node/v22/bin/node';
    const plan = await planOf({ type: 'stdio', command: nvmNode, args: [], env: {}, sandboxEnabled: true, sandbox: undefined }, (f) => f === nvmNode);
    assert.deepStrictEqual(plan.sandbox?.readable, [folder, '/home/ada/.nvm/versions/node/v22/bin']);
  });

  it('a folder programs outside the sandbox run from, or one holding the home folder, is never writable: the plan is refused, saying why', async () => {
    const withWrite = (...allowWrite: string[]): RawStdioServer => ({ type: 'stdio', command: 'npx', args: [], env: {}, sandboxEnabled: true, sandbox: { filesystem: { allowWrite, denyRead: [], denyWrite: [] }, network: { allowedDomains: [], deniedDomains: [] } } });
    await assert.rejects(planOf(withWrite('/')), /may not write \/: it holds your home folder/);
    await assert.rejects(planOf(withWrite('~')), /may not write \/home\/ada: it is your home folder/);
    await assert.rejects(planOf(withWrite('~/.npm/_npx')), /may not write \/home\/ada\/\.npm\/_npx: programs outside the sandbox run packages from \/home\/ada\/\.npm/);
    await assert.rejects(planOf(withWrite('/usr/bin')), /may not write \/usr\/bin: programs are run from it: \/usr\/bin is on your PATH/);
    await assert.rejects(planOf(withWrite('~/.cache/mcp-host/sandbox')), /it is in the extension's storage/);
    assert.deepStrictEqual((await planOf(withWrite('~/exports'))).sandbox?.writable, [folder, '/home/ada/exports']);
  });

  it('the question says what confined means, line by line; the pick summary says it is confined', async () => {
    const plan = await planOf(parseMcpConfig(vscodeFile).servers[0].server as RawStdioServer);
    const text = describeLaunchPlan(plan);
    assert.ok(text.includes('Confined: reads the system and ~/proj, not the rest of your home folder; never ~/proj/.env'), text);
    assert.ok(text.includes('Confined: writes only ~/proj, ~/out, ~/shared (never git, editor or shell settings there), its own package cache and a temporary folder; never ~/proj/.git'), text);
    assert.ok(text.includes('Confined: network only to registry.npmjs.org, api.github.com, *.example.com, example.org:443; no port of this machine'), text);
    assert.match(summarizeLaunchPlan(plan), /confined \(3 writable, 4 hosts\)/);
    const free = await planOf(parseMcpConfig(vscodeFile).servers[1].server as RawStdioServer);
    assert.ok(!describeLaunchPlan(free).includes('Confined'));
  });

  it('trust is for the rules too: another allowed domain or path is another plan; an unconfined plan keeps its identity', async () => {
    const server = parseMcpConfig(vscodeFile).servers[0].server as RawStdioServer;
    const hash = launchPlanHash('scope', 'fs', await planOf(server));
    const moreNet = { ...server, sandbox: { ...server.sandbox!, network: { allowedDomains: [...server.sandbox!.network.allowedDomains, 'evil.example'], deniedDomains: [] } } };
    const moreWrite = { ...server, sandbox: { ...server.sandbox!, filesystem: { ...server.sandbox!.filesystem, allowWrite: ['~/more'] } } };
    const unconfined: RawStdioServer = { ...server, sandboxEnabled: undefined, sandbox: undefined };
    const hashes = [hash, launchPlanHash('scope', 'fs', await planOf(moreNet)), launchPlanHash('scope', 'fs', await planOf(moreWrite)), launchPlanHash('scope', 'fs', await planOf(unconfined))];
    assert.strictEqual(new Set(hashes).size, 4);
    assert.strictEqual(launchPlanHash('scope', 'fs', await planOf(server)), hash, 'stable');
    const plain = await planOf(unconfined);
    assert.ok(!('sandbox' in plain), 'no sandbox key: the identity of plans made before sandboxes existed');
  });

  it('the JSON schema has the keys, each with a description, where VS Code has them', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, 'media', 'mcp.schema.json'), 'utf8'));
    const stdio = schema.definitions.stdioServer.properties.sandboxEnabled;
    assert.strictEqual(stdio.type, 'boolean');
    assert.ok(stdio.markdownDescription.includes('Run Unconfined'));
    assert.deepStrictEqual(schema.properties.sandbox, { $ref: '#/definitions/sandbox' });
    const sandbox = schema.definitions.sandbox;
    assert.deepStrictEqual(Object.keys(sandbox.properties.filesystem.properties), ['allowWrite', 'denyRead', 'denyWrite']);
    assert.deepStrictEqual(Object.keys(sandbox.properties.network.properties), ['allowedDomains', 'deniedDomains']);
    for (const group of ['filesystem', 'network']) for (const [k, v] of Object.entries(sandbox.properties[group].properties)) assert.ok((v as { description?: string }).description, k);
    assert.strictEqual(schema.definitions.remoteServer.properties.sandboxEnabled, undefined);
  });
});
