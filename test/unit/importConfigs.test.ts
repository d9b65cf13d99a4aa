// "MCP: Import Servers…": the other tools' files (fixtures in test/fixtures/import) read into entries of ours, with
// secrets written out in them never copied.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { referencedInputIds } from '../../src/core/config/variables';
import { foreignConfigSources, readForeignConfig, type ForeignSource } from '../../src/core/config/foreignConfigs';
import { writeServer } from '../../src/core/config/mcpJsonWriter';
import { repoRoot } from './helpers';

const configModel = { parse: (text: string) => parseMcpConfig(text), referencedInputIds };

const fixture = (name: string) => fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'import', name), 'utf8');
const source = (kind: ForeignSource['kind'], label: string): ForeignSource => ({ kind, label, path: `/x/${label}` });

describe('importing other tools’ MCP configurations', () => {
  it('knows where each tool keeps its servers', () => {
    const sources = foreignConfigSources({ env: {}, platform: 'linux', home: '/home/me', folders: [{ name: 'app', path: '/work/app' }] });
    assert.deepStrictEqual(sources.map((s) => [s.label, s.path]), [
      ['Claude Desktop', '/home/me/.config/Claude/claude_desktop_config.json'],
      ['Cursor', '/home/me/.cursor/mcp.json'],
      ['Cursor (app)', '/work/app/.cursor/mcp.json'],
      ['Claude Code', '/home/me/.claude.json'],
      ['VS Code', '/home/me/.config/Code/User/mcp.json'],
    ]);
    // A cloned repository's .cursor/mcp.json is the repository's words: marked, so it is never offered for the user's file.
    assert.deepStrictEqual(sources.filter((s) => s.inWorkspace).map((s) => s.path), ['/work/app/.cursor/mcp.json']);
    const mac = foreignConfigSources({ env: {}, platform: 'darwin', home: '/Users/me', folders: [] });
    assert.strictEqual(mac[0].path, '/Users/me/Library/Application Support/Claude/claude_desktop_config.json');
  });

  it('Claude Desktop: servers as they are, a token written out becomes a password input, a broken one says why', () => {
    const { candidates } = readForeignConfig(fixture('claude_desktop_config.json'), source('claudeDesktop', 'Claude Desktop'), configModel);
    assert.deepStrictEqual(candidates.map((c) => [c.name, c.entry, c.problem]), [
      ['filesystem', { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] }, undefined],
      ['github', { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github-github-personal-access-token}', GITHUB_HOST: 'github.com' } }, undefined],
      ['broken', undefined, 'it has neither a "command" nor a "url"'],
    ]);
    assert.deepStrictEqual(candidates[1].inputs, [
      { type: 'promptString', id: 'github-github-personal-access-token', description: 'Environment variable GITHUB_PERSONAL_ACCESS_TOKEN for github (not copied from Claude Desktop)', password: true },
    ]);
    assert.ok(!JSON.stringify(candidates).includes('ghp_example'), 'the token is not copied');
  });

  it('Cursor: remotes with headers (values as inputs, variables kept), sse, a disabled server left out with the reason, ${workspaceFolder} and ${userHome} kept', () => {
    const { candidates } = readForeignConfig(fixture('cursor-mcp.json'), source('cursor', 'Cursor'), configModel);
    assert.deepStrictEqual(candidates.map((c) => [c.name, c.entry, c.problem]), [
      ['remote-search', { type: 'http', url: 'https://mcp.example.com/search/mcp', headers: { Authorization: '${input:remote-search-authorization}', 'X-Team': '${env:TEAM_ID}' } }, undefined],
      ['events', { type: 'sse', url: 'https://events.example.com/sse' }, undefined],
      ['local', undefined, 'it is disabled there'],
      // The variables both formats share stay as they are; only Cursor's own ${NAME} becomes ${env:NAME}.
      ['files', { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}', '${userHome}/notes', '${env:NOTES_DIR}'] }, undefined],
    ]);
  });

  it('Claude Code: its user servers and those of the open folders, ${NAME} as ${env:NAME}; a ${NAME:-default} refused with the reason', () => {
    const { candidates } = readForeignConfig(fixture('claude.json'), source('claudeCode', 'Claude Code'), configModel, ['/work/my-app']);
    assert.deepStrictEqual(candidates.map((c) => [c.name, c.entry, c.problem]), [
      ['memory', { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE: '${env:HOME}/memory.json' } }, undefined],
      // VS Code's format has no default: ${env:DB_PASSWORD} would run it with an empty value where Claude Code used the default.
      ['db', undefined, "${DB_PASSWORD:-secret} has a default, which VS Code's format cannot write"],
    ]);
  });

  it('VS Code: each entry with the inputs it uses; everything imported writes a clean mcp.json', () => {
    const { candidates } = readForeignConfig(fixture('vscode-mcp.json'), source('vscode', 'VS Code'), configModel);
    assert.deepStrictEqual(candidates.map((c) => [c.name, c.entry, c.inputs.map((i) => i.id)]), [
      ['fetch', { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] }, []],
      ['api', { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${input:api-token}' } }, ['api-token']],
    ]);
    let text = '{\n  // imported\n}\n';
    const all = [
      ...candidates,
      ...readForeignConfig(fixture('claude_desktop_config.json'), source('claudeDesktop', 'Claude Desktop'), configModel).candidates,
      ...readForeignConfig(fixture('cursor-mcp.json'), source('cursor', 'Cursor'), configModel).candidates,
    ];
    for (const c of all) if (c.entry) text = writeServer(text, { name: c.name, entry: c.entry, inputs: c.inputs }).text;
    const parsed = parseMcpConfig(text);
    assert.deepStrictEqual(parsed.diagnostics, []);
    assert.deepStrictEqual(parsed.servers.map((s) => s.name), ['fetch', 'api', 'filesystem', 'github', 'remote-search', 'events', 'files']);
    assert.ok(text.includes('// imported'));
  });

  it('says when a file is not JSON', () => {
    assert.deepStrictEqual(readForeignConfig('{ nope', source('cursor', 'Cursor'), configModel), { candidates: [], error: '/x/Cursor is not a JSON object.' });
  });
});
