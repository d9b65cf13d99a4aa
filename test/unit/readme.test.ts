import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import semver = require('semver');
import { repoRoot } from './helpers';

/** A PNG's size, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const b = fs.readFileSync(file);
  assert.strictEqual(b.toString('latin1', 1, 4), 'PNG', `${file} is a PNG`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('the README for a newcomer', () => {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const firstScreen = readme.split('\n').slice(0, 45).join('\n');

  it('shows on its first screen what it does, the MCP view and chat as they are, and a quick start', () => {
    for (const picture of ['media/screenshot-mcp-view.png', 'media/screenshot-chat.png']) {
      assert.ok(firstScreen.includes(`](${picture})`), `${picture} on the first screen`);
      assert.deepStrictEqual(pngSize(path.join(repoRoot, picture)), { width: 1280, height: 800 }, `${picture}: a workbench screenshot`);
    }
    assert.match(firstScreen, /^## Quick start$/m);
    assert.match(firstScreen, /`npm ci && npm run demo`/);
    assert.match(firstScreen, /prints an address/);
  });

  it('has a demo that never runs sudo', () => {
    for (const script of ['scripts/demo.mjs', 'scripts/ensure-vscode-tools.sh', 'scripts/ensure-sandbox-tools.sh', 'scripts/code-server-launcher.mjs']) {
      const text = fs.readFileSync(path.join(repoRoot, script), 'utf8');
      const runsSudo = text.split('\n').filter((line) => /\bsudo\b/.test(line) && !/^\s*(#|\/\/|log )/.test(line));
      assert.deepStrictEqual(runsSudo, [], `${script} only mentions sudo in what it tells the user`);
    }
  });
});

describe('the Node version', () => {
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8')) as Record<string, unknown>;
  type Manifest = { engines?: { node?: string } };
  const declared = (read('package.json') as Manifest).engines?.node;
  const locked = Object.entries(read('package-lock.json').packages as Record<string, Manifest>).filter(([name, p]) => name && p.engines?.node);

  it("is what the dependencies need, no more: package.json's engines, and what `npm ci` checks", () => {
    assert.ok(declared, 'package.json states engines.node');
    const lowest = semver.minVersion(declared)!.version;
    const refusing = locked.filter(([, p]) => !semver.satisfies(lowest, p.engines!.node!)).map(([name, p]) => `${name} (${p.engines!.node})`);
    assert.deepStrictEqual(refusing, [], `Node ${lowest} is refused by`);
    // The lowest version every dependency takes: the least of the ranges' own lower bounds that all of them accept.
    const bounds = locked.flatMap(([, p]) => p.engines!.node!.split('||').map((r) => semver.minVersion(r.trim())?.version ?? '0.0.0'));
    const needed = bounds.filter((v) => locked.every(([, p]) => semver.satisfies(v, p.engines!.node!))).sort(semver.compare)[0];
    assert.strictEqual(lowest, needed, 'engines.node asks for more than any dependency needs');
  });

  it('is stated in the README where a newcomer starts, as package.json says it', () => {
    const { major, minor } = semver.minVersion(declared!)!;
    const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
    assert.ok(quickStart.includes(`Node ${major}.${minor} or newer`), 'the Quick start names the Node version');
  });
});

describe('docs/architecture.md for a newcomer', () => {
  const doc = fs.readFileSync(path.join(repoRoot, 'docs', 'architecture.md'), 'utf8');
  const folders = (dir: string) => fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

  it('shows its picture, and names every layer of src/core, every feature folder and every folder of src/vscode', () => {
    assert.ok(doc.includes('](architecture.svg)') && fs.existsSync(path.join(repoRoot, 'docs', 'architecture.svg')), 'the picture');
    const missing = [
      ...folders('src/core').map((f) => `\`${f}\``).filter((f) => !doc.includes(f)),
      ...folders('src/core/features').map((f) => `features/${f}`).filter((f) => !doc.includes(f)),
      ...folders('src/vscode').map((f) => `${f}/`).filter((f) => !doc.includes(`\`${f}`) && !doc.includes(`vscode/${f}`)),
    ];
    assert.deepStrictEqual(missing, []);
  });

  it('says how to run one unit test file and one integration test file, with commands that exist', () => {
    const scripts = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const command of [...doc.matchAll(/`(?:[A-Z_]+=\S+ )?npm run ([\w:]+)/g)].map((m) => m[1])) assert.ok(scripts[command], `npm run ${command}`);
    assert.match(doc, /npm run test:unit:one -- out\/test\/unit\/\w+\.test\.js/);
    assert.match(doc, /MCPHOST_TEST_FILES=\w+ npm run test:integration/);
  });
});

