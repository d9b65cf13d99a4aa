// A property of the confined plan, over generated sandbox blocks, working directories and workspaces on disk: no
// protected path (the set of docs/trust-and-security.md, shell files where they are, in every folder the server may write and every
// folder above one that it may also write, and a PATH entry inside one) is writable under the settings the runtime
// gets. Writability is the runtime's rule: under an allowWrite entry and under no denyWrite entry, an absent denied
// path blocking its first missing component (the runtime's placeholder). Plain mocha with a seeded generator: a
// failure names its seed. The real sandbox is held to the same set in sandboxAttacks.test.ts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { emptySandboxConfig } from '../../src/core/config/sandboxConfig';
import { buildStdioPlan } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { runtimeSettings } from '../../src/core/protocol/launch/sandboxRuntime.lazy';

/** mulberry32: small, seeded, good enough to spread cases. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const chance = (p: number) => next() < p;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  return { chance, pick };
}
type Gen = ReturnType<typeof generator>;

/** The protected set docs/trust-and-security.md lists. */
const FILES = ['.mcp.json', '.gitmodules', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.envrc', '.exrc', '.vimrc', '.nvimrc', '.nvim.lua', 'commondir'];
/** Read from the home folder only (never writable): protected where they are. */
const HOME_FILES = ['.gitconfig', '.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.ripgreprc'];
const FOLDERS = ['.vscode', '.idea', '.github', '.devcontainer', '.claude', '.cursor', '.husky', '.cargo', 'node_modules', 'node_modules/.bin', '.venv', '.venv/bin'];
const GIT_FILES = ['config', 'config.worktree', 'commondir', 'gitdir'];
const GIT_FOLDERS = ['hooks', 'info', 'modules', 'worktrees'];

const inside = (parent: string, child: string) => child === parent || child.startsWith(`${parent}/`);

/** A folder of a workspace as it may be on disk: some protected names there already, a repository or not. */
function populate(g: Gen, dir: string, repository: 'dir' | 'file' | 'none') {
  fs.mkdirSync(dir, { recursive: true });
  for (const f of [...FILES, ...HOME_FILES]) if (g.chance(0.2)) fs.writeFileSync(path.join(dir, f), 'mine');
  for (const f of FOLDERS) if (g.chance(0.2)) fs.mkdirSync(path.join(dir, f), { recursive: true });
  if (g.chance(0.2)) fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  if (repository === 'file') fs.writeFileSync(path.join(dir, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
  if (repository !== 'dir') return;
  const git = path.join(dir, '.git');
  for (const d of ['objects', 'refs']) fs.mkdirSync(path.join(git, d), { recursive: true });
  fs.writeFileSync(path.join(git, 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(git, 'config'), '[core]\n');
  for (const f of GIT_FOLDERS) if (g.chance(0.5)) fs.mkdirSync(path.join(git, f));
  for (const f of GIT_FILES.slice(1)) if (g.chance(0.2)) fs.writeFileSync(path.join(git, f), f === 'commondir' ? '.\n' : '');
}

/** What a server would write to plant something in `dir` (as sandboxAttacks.test.ts tries it for real). */
function targets(dir: string): string[] {
  const dotGit = path.join(dir, '.git');
  let git: string[];
  if (!fs.existsSync(dotGit)) git = [path.join(dotGit, 'config'), path.join(dotGit, 'HEAD')];
  else if (!fs.statSync(dotGit).isDirectory()) git = [dotGit];
  else git = [...GIT_FILES.map((f) => path.join(dotGit, f)), ...GIT_FOLDERS.flatMap((f) => [path.join(dotGit, f), path.join(dotGit, f, 'x')])];
  return [...FILES.map((f) => path.join(dir, f)), ...HOME_FILES.map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f)), ...FOLDERS.flatMap((f) => [path.join(dir, f, 'x'), path.join(dir, f.split('/')[0], f.split('/')[1] ?? 'y', 'x')]), ...git];
}

/** The first component of `p` that does not exist (the runtime's placeholder for an absent denied path goes there). */
function firstMissing(p: string): string | undefined {
  for (let at = p; ; at = path.dirname(at)) {
    if (fs.existsSync(at)) return at === p ? undefined : p.slice(0, p.indexOf('/', at.length + 1) === -1 ? p.length : p.indexOf('/', at.length + 1));
    if (path.dirname(at) === at) return undefined;
  }
}

describe('confined plan, property: no protected path is writable, whatever the sandbox block and the working directory', function () {
  this.timeout(60_000);
  let root: string;
  beforeEach(() => (root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-protect-')))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}`, () => {
      const g = generator(seed);
      const home = path.join(root, 'home');
      const ws = path.join(home, 'ws');
      const outside = path.join(root, 'outside');
      const sub = path.join(ws, 'sub');
      const deeper = path.join(sub, 'deeper');
      populate(g, ws, g.pick(['dir', 'dir', 'file', 'none'] as const));
      populate(g, sub, g.pick(['none', 'none', 'dir'] as const));
      populate(g, deeper, 'none');
      populate(g, path.join(ws, 'other'), 'none');
      populate(g, outside, g.pick(['dir', 'none'] as const));
      fs.mkdirSync(path.join(ws, 'bin'), { recursive: true });
      const cwd = g.pick([ws, sub, deeper]);
      const sandbox = emptySandboxConfig();
      for (const candidate of [ws, sub, path.join(ws, 'other'), outside, '${workspaceFolder}/sub', 'other']) if (g.chance(0.3)) sandbox.filesystem.allowWrite.push(candidate);
      if (g.chance(0.3)) sandbox.filesystem.denyWrite.push(path.join(cwd, 'private'));
      const PATH = g.chance(0.5) ? `${path.join(ws, 'bin')}:/usr/bin` : '/usr/bin';
      const resolved = { type: 'stdio' as const, command: g.pick(['npx', 'uvx', 'mytool']), args: [], env: {}, cwd, sandboxEnabled: true, sandbox };
      const plan = buildStdioPlan({ scope: { folderPath: ws }, resolved, shown: resolved, hostEnv: { PATH, HOME: home }, platform: 'linux', isExecutable: () => true, home, sandboxStorage: path.join(home, '.storage') });
      const settings = runtimeSettings(plan.sandbox!, path.join(root, 'tmp'), { PATH });
      const allow = settings.filesystem.allowWrite.map((e) => e.path);
      const deny = settings.filesystem.denyWrite.map((e) => (typeof e === 'string' ? e : e.path)).flatMap((d) => [d, firstMissing(d)].filter((x): x is string => !!x));
      const writable = (p: string) => allow.some((a) => inside(a, p)) && !deny.some((d) => inside(d, p));

      const roots = plan.sandbox!.writable;
      const folders = new Set<string>();
      for (const r of roots) for (let dir = r; dir !== path.dirname(dir); dir = path.dirname(dir)) if (roots.some((o) => inside(o, dir))) folders.add(dir);
      const exposed = [...folders].flatMap(targets).filter(writable);
      if (PATH.includes(ws) && roots.some((r) => inside(r, path.join(ws, 'bin')))) assert.ok(!writable(path.join(ws, 'bin', 'git')), `seed ${seed}: a PATH entry is writable`);
      assert.deepStrictEqual(exposed, [], `seed ${seed}: cwd ${cwd}, allowWrite ${JSON.stringify(sandbox.filesystem.allowWrite)}`);
      // Not by denying everything: each folder it may write still takes an ordinary file.
      for (const r of roots) if (fs.existsSync(r)) assert.ok(writable(path.join(r, 'ordinary.txt')), `seed ${seed}: ${r} is not writable at all`);
    });
  }
});
