import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
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
