import * as assert from 'assert';
import { orderTargets, preferredFormat, rememberedKind, vscodeWrites, type TargetKind } from '../../src/core/config/writeTargetOrder.lazy';

/** The files an install offers with one folder open, as src/vscode/config/writeTargets.lazy lists them. */
const TARGETS: (TargetKind & { file: string })[] = [
  { file: '.vscode/mcp.json', scope: 'workspace', format: 'vscode' },
  { file: '.mcp.json', scope: 'workspace', format: 'mcpServers' },
  { file: 'your mcp.json', scope: 'user', format: 'vscode' },
  { file: '~/.copilot/mcp-config.json', scope: 'user', format: 'mcpServers' },
];
const order = (last: TargetKind | undefined, version: string) => orderTargets(TARGETS, last, version).map((t) => t.file);

describe('where a server is written: the order the files are offered in', () => {
  it('offers first the files VS Code writes: from 1.140 on .mcp.json and ~/.copilot/mcp-config.json, before it its own', () => {
    assert.strictEqual(vscodeWrites('1.139.1'), 'vscode');
    assert.strictEqual(vscodeWrites('1.140.0'), 'mcpServers');
    assert.strictEqual(vscodeWrites('1.141.0-insider'), 'mcpServers');
    assert.strictEqual(vscodeWrites('2.0.0'), 'mcpServers');
    assert.deepStrictEqual(order(undefined, '1.140.0'), ['.mcp.json', '.vscode/mcp.json', '~/.copilot/mcp-config.json', 'your mcp.json']);
    assert.deepStrictEqual(order(undefined, '1.139.1'), ['.vscode/mcp.json', '.mcp.json', 'your mcp.json', '~/.copilot/mcp-config.json']);
  });

  it('offers the kind of file picked last first, whatever VS Code writes, and then that format first', () => {
    assert.deepStrictEqual(order({ scope: 'user', format: 'mcpServers' }, '1.139.1'), ['~/.copilot/mcp-config.json', '.mcp.json', '.vscode/mcp.json', 'your mcp.json']);
    assert.deepStrictEqual(order({ scope: 'workspace', format: 'vscode' }, '1.140.0'), ['.vscode/mcp.json', '.mcp.json', 'your mcp.json', '~/.copilot/mcp-config.json']);
    assert.strictEqual(preferredFormat({ scope: 'user', format: 'vscode' }, '1.140.0'), 'vscode');
    assert.strictEqual(preferredFormat(undefined, '1.140.0'), 'mcpServers');
  });

  it('with several folders open, offers each folder\'s file of the preferred format first, in the folders\' order', () => {
    const two = [
      { file: 'a/.vscode/mcp.json', scope: 'workspace', format: 'vscode' },
      { file: 'a/.mcp.json', scope: 'workspace', format: 'mcpServers' },
      { file: 'b/.vscode/mcp.json', scope: 'workspace', format: 'vscode' },
      { file: 'b/.mcp.json', scope: 'workspace', format: 'mcpServers' },
    ] as const;
    assert.deepStrictEqual(orderTargets([...two], undefined, '1.140.0').map((t) => t.file), ['a/.mcp.json', 'b/.mcp.json', 'a/.vscode/mcp.json', 'b/.vscode/mcp.json']);
  });

  it('ignores a remembered value that is not one (an older or damaged global state)', () => {
    for (const bad of [undefined, null, 'user', { scope: 'user' }, { scope: 'folder', format: 'vscode' }, { scope: 'user', format: 'json' }]) assert.strictEqual(rememberedKind(bad), undefined);
    assert.deepStrictEqual(rememberedKind({ scope: 'user', format: 'mcpServers', extra: 1 }), { scope: 'user', format: 'mcpServers' });
  });
});
