import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as os from 'os';
import { repoRoot } from './helpers';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** True when TypeScript source reaches the vscode module: import, import type, require or dynamic import. */
const touchesVscode = (source: string): boolean =>
  /(from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/.test(source);

describe('layering', () => {
  it('the check recognises every way of reaching the vscode module, and nothing else', () => {
    for (const source of [
      "import * as vscode from 'vscode';",
      'import type { Uri } from "vscode";',
      "const vscode = require('vscode');",
      "import vscode = require('vscode');",
      "const v = await import('vscode');",
    ])
      assert.ok(touchesVscode(source), source);
    for (const source of ["import * as path from 'path';", "// talks to 'vscode' only through ports", "import { x } from './vscodeLike';"])
      assert.ok(!touchesVscode(source), source);
  });

  it('src/core never touches the vscode module, at run time or for types', () => {
    const files = filesUnder(path.join(repoRoot, 'src', 'core'));
    assert.ok(files.length > 10, 'core files found');
    const offenders = files.filter((f) => touchesVscode(fs.readFileSync(f, 'utf8')));
    assert.deepStrictEqual(offenders.map((f) => path.relative(repoRoot, f)), []);
  });
});

/** Relative imports of a source file (import, import type, export … from, dynamic import), resolved to files. */
function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]*)['"]/g)) {
    const base = path.resolve(path.dirname(file), m[1]);
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
    if (target) found.push(target);
  }
  return found;
}

/** The cycles of a graph (strongly connected components of more than one node), each as a sorted list. */
function cyclesOf(nodes: string[], edges: (n: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return cycles;
}

describe('structure', () => {
  const src = path.join(repoRoot, 'src');
  const rel = (f: string) => path.relative(repoRoot, f);

  it('finds cycles, type imports included, and nothing else', () => {
    const graph: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'] };
    assert.deepStrictEqual(cyclesOf(Object.keys(graph), (n) => graph[n]), [['a', 'b', 'c']]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-imports-'));
    fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
    fs.writeFileSync(path.join(dir, 'b.ts'), "export { a } from './a';\nconst c = import('./c');\n");
    fs.writeFileSync(path.join(dir, 'c.ts'), "import 'vscode';\n");
    assert.deepStrictEqual(importsOf(path.join(dir, 'a.ts')), [path.join(dir, 'b.ts')]);
    assert.deepStrictEqual(importsOf(path.join(dir, 'b.ts')), [path.join(dir, 'a.ts'), path.join(dir, 'c.ts')]);
    fs.rmSync(dir, { recursive: true });
  });

  it('has no import cycle among the files of src/vscode, type imports included', () => {
    const files = filesUnder(path.join(src, 'vscode'));
    const inVscode = new Set(files);
    const cycles = cyclesOf(files, (f) => importsOf(f).filter((t) => inVscode.has(t)));
    assert.deepStrictEqual(cycles.map((c) => c.map(rel)), []);
  });

  /** The layers of src/core, lowest first: a file imports only from its own folder and the layers below it. */
  const CORE_LAYERS = ['common', 'config', 'auth', 'host', 'presentation', 'features', 'protocol'];
  /** The one file above every layer: the core's composition root. */
  const CORE_ROOT = 'createCoreHost.ts';

  /** A core file's unit: its top folder, or `features/<feature>` for a feature folder (`features` for what features share). */
  const unitOf = (f: string) => {
    const parts = path.relative(path.join(src, 'core'), f).split(path.sep);
    return parts[0] === 'features' && parts.length > 2 ? `features/${parts[1]}` : parts[0];
  };
  const layerOf = (unit: string) => (unit === CORE_ROOT ? CORE_LAYERS.length : CORE_LAYERS.indexOf(unit.split('/')[0]));

  /** Imports of src/core that run up a layer (or from a shared file into a feature), and cycles among features. */
  function coreLayerProblems(files: string[], imports: (f: string) => string[]): { upward: string[]; featureCycles: string[][] } {
    const upward: string[] = [];
    const featureEdges = new Map<string, Set<string>>();
    for (const f of files) {
      const from = unitOf(f);
      for (const t of imports(f).filter((t) => t.startsWith(path.join(src, 'core')))) {
        const to = unitOf(t);
        if (to === from) continue;
        const sideways = layerOf(to) === layerOf(from);
        if (layerOf(to) > layerOf(from) || (sideways && !(from.startsWith('features/') && to.startsWith('features')))) upward.push(`${rel(f)} -> ${rel(t)}`);
        else if (sideways && to.startsWith('features/')) (featureEdges.get(from) ?? featureEdges.set(from, new Set()).get(from)!).add(to);
      }
    }
    return { upward, featureCycles: cyclesOf([...featureEdges.keys()], (u) => [...(featureEdges.get(u) ?? [])]) };
  }

  it('finds an import that runs up a core layer, and a cycle between two features', () => {
    const core = (p: string) => path.join(src, 'core', p);
    const files = [core('host/a.ts'), core('config/b.ts'), core('features/tools/c.ts'), core('features/apps/d.ts'), core('features/e.ts')];
    const graph: Record<string, string[]> = {
      [files[0]]: [files[1]],
      [files[1]]: [files[0]],
      [files[2]]: [files[3], files[4], files[0]],
      [files[3]]: [files[2]],
      [files[4]]: [files[2]],
    };
    const found = coreLayerProblems(files, (f) => graph[f] ?? []);
    assert.deepStrictEqual(found.upward, ['src/core/config/b.ts -> src/core/host/a.ts', 'src/core/features/e.ts -> src/core/features/tools/c.ts']);
    assert.deepStrictEqual(found.featureCycles, [['features/apps', 'features/tools']]);
  });

  it('keeps src/core in layers, each feature one folder: no import runs up a layer, no cycle between features', () => {
    const files = filesUnder(path.join(src, 'core'));
    assert.deepStrictEqual(files.map(unitOf).filter((u) => u.endsWith('.ts') && u !== CORE_ROOT), [], 'every core file but the composition root is in a folder');
    assert.deepStrictEqual([...new Set(files.map(unitOf).filter((u) => !u.startsWith('features/') && u !== CORE_ROOT))].filter((u) => !CORE_LAYERS.includes(u)), [], 'every core folder is a layer');
    assert.ok(new Set(files.map(unitOf).filter((u) => u.startsWith('features/'))).size >= 8, 'feature folders found');
    const { upward, featureCycles } = coreLayerProblems(files, importsOf);
    assert.deepStrictEqual(upward, []);
    assert.deepStrictEqual(featureCycles, []);
  });

  it('keeps every source file under 400 lines', () => {
    const long = filesUnder(src)
      .map((f) => ({ file: rel(f), lines: fs.readFileSync(f, 'utf8').split('\n').length }))
      .filter((f) => f.lines > 400);
    assert.deepStrictEqual(long, []);
  });
});

describe('the lazy boundary lint rule', function () {
  // Loading ESLint and typescript-eslint takes seconds on a busy machine.
  this.timeout(60_000);
  /** Lints `code` as if it were the file at `filePath`, with only the project's layering rules. */
  async function lint(filePath: string, code: string): Promise<string[]> {
    const load = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<Record<string, unknown>>;
    const { ESLint } = (await load('eslint')) as { ESLint: typeof import('eslint').ESLint };
    const tseslint = ((await load('typescript-eslint')) as { default: { parser: unknown } }).default;
    const { layerRules } = (await load(path.join(repoRoot, 'scripts', 'eslint-layers.mjs'))) as { layerRules: object[] };
    const eslint = new ESLint({
      cwd: repoRoot,
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...layerRules] as never,
    });
    const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
    return result.messages.map((m) => `${m.ruleId}: ${m.message.split(':')[0]}`);
  }

  it('refuses a value import of a lazy module from a file that is not lazy', async () => {
    assert.match((await lint('src/vscode/probe.ts', "import { createConnection } from '../core/protocol/serverConnection.lazy';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/vscode/tools/probe.ts', "import { toolResultHtml } from './toolResultHtml.lazy';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/core/host/probe.ts', "import { ServerConnection } from '../protocol/serverConnection.lazy';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/core/features/tools/probe.ts', "import { toolResultView } from './toolResultView.lazy';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/extension.ts', "export { modalDialogs } from './vscode/dialogs/modalDialogs.lazy';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/vscode/createHost.ts', "import { modalDialogs } from './dialogs/modalDialogs.lazy';\n")).join(), /no-restricted-imports/);
  });

  it('refuses loading a lazy bundle anywhere but the composition root, lazy files included', async () => {
    for (const file of ['src/vscode/probe.ts', 'src/vscode/tools/probe.lazy.ts', 'src/core/host/probe.ts', 'src/core/features/tools/probe.lazy.ts', 'src/extension.ts']) {
      assert.match((await lint(file, "const s = require('./hostBundle.lazy');\n")).join(), /no-restricted-syntax/, file);
      assert.match((await lint(file, "import s = require('./launchBundle.lazy');\n")).join(), /no-restricted-syntax/, file);
      assert.match((await lint(file, "const s = import('./tools/toolResultHtml.lazy');\n")).join(), /no-restricted-syntax/, file);
    }
    assert.deepStrictEqual(await lint('src/vscode/createHost.ts', "const s = require('./hostBundle.lazy');\n"), []);
  });

  it('refuses even a type import of a lazy module outside the composition root: contracts live with their callers', async () => {
    assert.match((await lint('src/vscode/probe.ts', "import type { ToolCallRunner } from './tools/toolCallRunner.lazy';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/core/host/probe.ts', "import type { ServerConnection } from '../protocol/serverConnection.lazy';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/vscode/probe.ts', "import type * as S from './hostBundle.lazy';\n")).join(), /no-restricted-imports/);
    assert.deepStrictEqual(await lint('src/vscode/createHost.ts', "import type * as S from './hostBundle.lazy';\n"), []);
  });

  it('allows any static import inside lazy files, and in the CLI', async () => {
    assert.deepStrictEqual(await lint('src/vscode/tools/probe.lazy.ts', "import { createConnection } from '../../core/protocol/serverConnection.lazy';\n"), []);
    assert.deepStrictEqual(await lint('src/core/features/tools/probe.lazy.ts', "import { toolResultView } from './toolResultView.lazy';\n"), []);
    assert.deepStrictEqual(await lint('src/cli/probe.ts', "import { createConnection } from '../core/protocol/serverConnection.lazy';\n"), []);
  });

  it('still keeps the vscode module out of src/core, its lazy files included', async () => {
    assert.match((await lint('src/core/host/probe.ts', "import * as vscode from 'vscode';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/core/protocol/probe.lazy.ts', "import type { Uri } from 'vscode';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/core/host/probe.ts', "import vscode = require('vscode');\n")).join(), /no-restricted-syntax/);
    assert.match((await lint('src/core/features/tools/probe.lazy.ts', "import vscode = require('vscode');\n")).join(), /no-restricted-syntax/);
  });
});

describe('the scripts that load compiled modules by path', () => {
  it('name only modules that exist (the bench requires the core by path: a move breaks it silently otherwise)', () => {
    const bench = fs.readFileSync(path.join(repoRoot, 'scripts', 'bench.mjs'), 'utf8');
    const named = [...bench.matchAll(/\bcore\('([^']+)\.js'\)/g)].map((m) => path.join('src', 'core', `${m[1]}.ts`));
    assert.ok(named.length >= 5, `core modules named: ${named.join(', ')}`);
    assert.deepStrictEqual(named.filter((f) => !fs.existsSync(path.join(repoRoot, f))), []);
  });
});
