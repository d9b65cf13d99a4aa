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

describe('layering', () => {
  it('src/core never touches the vscode module, at run time or for types', () => {
    const files = filesUnder(path.join(repoRoot, 'src', 'core'));
    assert.ok(files.length > 10, 'core files found');
    const offenders = files.filter((f) => /(from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/.test(fs.readFileSync(f, 'utf8')));
    assert.deepStrictEqual(offenders.map((f) => path.relative(repoRoot, f)), []);
  });

  it('the check itself catches an offending file', () => {
    const sample = "import * as vscode from 'vscode';";
    assert.ok(/(from\s+['"]vscode['"])/.test(sample));
  });
});
