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

  it('has no import cycle between the folders of src/core, type imports included', () => {
    const files = filesUnder(path.join(src, 'core'));
    const folderOf = (f: string) => path.relative(path.join(src, 'core'), f).split(path.sep)[0];
    assert.deepStrictEqual(files.filter((f) => !folderOf(f).length || folderOf(f).endsWith('.ts')).map(rel), [], 'every core file is in a folder');
    const edges = new Map<string, Set<string>>();
    for (const f of files) {
      const from = folderOf(f);
      for (const t of importsOf(f)) if (t.startsWith(path.join(src, 'core')) && folderOf(t) !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(folderOf(t));
    }
    const folders = [...new Set(files.map(folderOf))];
    assert.ok(folders.length >= 6, `core folders found: ${folders.join(', ')}`);
    assert.deepStrictEqual(cyclesOf(folders, (f) => [...(edges.get(f) ?? [])]), []);
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

  it('refuses a value import of the protocol layer or the session layer from activation code', async () => {
    assert.match((await lint('src/vscode/probe.ts', "import { createConnection } from '../core/protocol/serverConnection';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/vscode/tools/probe.ts', "import { toolResultHtml } from '../session/toolResultHtml';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/core/host/probe.ts', "import { ServerConnection } from '../protocol/serverConnection';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/extension.ts', "export { sessionDialogs } from './vscode/session/sessionDialogs';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/vscode/probe.ts', "const s = require('./session');\n")).join(), /no-restricted-syntax/);
    assert.match((await lint('src/vscode/probe.ts', "import s = require('./session');\n")).join(), /no-restricted-syntax/);
  });

  it('allows type imports across it, and any import inside the lazy layers or the CLI', async () => {
    assert.deepStrictEqual(await lint('src/vscode/probe.ts', "import type { SessionLayer } from './sessionLayer';\nimport type * as S from './session';\n"), []);
    assert.deepStrictEqual(await lint('src/core/host/probe.ts', "import type { ServerConnection } from '../protocol/serverConnection';\n"), []);
    assert.deepStrictEqual(await lint('src/vscode/session/probe.ts', "import { createConnection } from '../../core/protocol/serverConnection';\n"), []);
    assert.deepStrictEqual(await lint('src/cli/probe.ts', "import { createConnection } from '../core/protocol/serverConnection';\n"), []);
  });

  it('still keeps the vscode module out of src/core, the protocol layer included', async () => {
    assert.match((await lint('src/core/host/probe.ts', "import * as vscode from 'vscode';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/core/protocol/probe.ts', "import type { Uri } from 'vscode';\n")).join(), /no-restricted-imports/);
    assert.match((await lint('src/core/host/probe.ts', "import vscode = require('vscode');\n")).join(), /no-restricted-syntax/);
    assert.match((await lint('src/core/protocol/probe.ts', "import vscode = require('vscode');\n")).join(), /no-restricted-syntax/);
  });
});
