// Moving servers between VS Code's format (.vscode/mcp.json, the user mcp.json) and the mcpServers format (.mcp.json,
// ~/.copilot/mcp-config.json), as "MCP: Migrate Configuration…" does: on every real file of the corpus
// (test/fixtures/real-configs) there and back, reading the same each way; comments kept; refusals with their reasons.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createScanner, findNodeAtLocation, getNodeValue, parseTree, SyntaxKind } from 'jsonc-parser';
import { migrateServers as migrateWith, migrationCandidates as candidatesWith, moveServer as moveWith, translateEntry, type ConfigText, type ShadowingName } from '../../src/core/config/configMigration.lazy';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { removeServer, writeServer } from '../../src/core/config/mcpJsonWriter';
import { registryOrigins } from '../../src/core/features/mcpRegistry/registryOrigins';
import type { VariableDialect } from '../../src/core/config/serverDefinition';
import { repoRoot } from './helpers';

/** The moves, reading with MCP Host's parser. */
const parse = (text: string, format: VariableDialect) => parseMcpConfig(text, { format });
const moveServer = (source: ConfigText, target: ConfigText, name: string, shadowing?: ShadowingName[]) => moveWith(source, target, name, { parse, shadowing });
const migrationCandidates = (source: ConfigText, target: ConfigText, shadowing?: ShadowingName[]) => candidatesWith(source, target, { parse, shadowing });
const migrateServers = (source: ConfigText, target: ConfigText, names: string[]) => migrateWith(source, target, names, { parse });
const corpus = path.join(repoRoot, 'test', 'fixtures', 'real-configs');
const other = (f: VariableDialect): VariableDialect => (f === 'vscode' ? 'mcpServers' : 'vscode');
const key = (f: VariableDialect) => (f === 'vscode' ? 'servers' : 'mcpServers');
const entryOf = (text: string, format: VariableDialect, name: string): unknown => JSON.parse(JSON.stringify(getNodeValue(findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, [key(format), name])!))) as unknown;
const serverOf = (text: string, format: VariableDialect, name: string) => parseMcpConfig(text, { format }).servers.find((s) => s.name === name)?.server;
const file = (text: string, format: VariableDialect, where = format === 'vscode' ? '.vscode/mcp.json' : '.mcp.json'): ConfigText => ({ text, format, where });

/** Every comment of a file, as written. */
function commentsOf(text: string): string[] {
  const scanner = createScanner(text, false);
  const found: string[] = [];
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) found.push(text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength()));
  }
  return found;
}

/**
 * An entry as the round trip gives it back: the same, but for what one format writes one way only (Copilot CLI's
 * `"type": "local"` is "stdio" in VS Code's format, and `${VAR:-}` and `${env:VAR}` come back as `${VAR}`).
 */
function normalized(value: unknown, format: VariableDialect): unknown {
  if (typeof value === 'string') return format === 'vscode' ? value : value.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-)?\}/g, '${$1}');
  if (Array.isArray(value)) return value.map((v) => normalized(v, format));
  if (typeof value !== 'object' || value === null) return value;
  const aliases: Record<string, string> = { local: 'stdio', 'streamable-http': 'http', streamableHttp: 'http' };
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'type' && typeof v === 'string' && aliases[v] ? aliases[v] : normalized(v, format)]));
}

/** The real files MCP Host reads in one of the two formats, at their root. */
const realFiles = ['vscode-mcp', 'dot-mcp', 'copilot-cli', 'github-mcp'].flatMap((kind) =>
  fs.readdirSync(path.join(corpus, kind)).map((name) => {
    const text = fs.readFileSync(path.join(corpus, kind, name), 'utf8');
    const format = kind === 'vscode-mcp' ? 'vscode' : kind === 'github-mcp' ? parseMcpConfig(text, { format: 'either' }).dialect : 'mcpServers';
    return { name: `${kind}/${name}`, text, format };
  }),
);

describe('migrating servers between VS Code\'s format and mcpServers', () => {
  it('moves every server of every real file that it can to the other format and back: each reads the same there, and comes back as written', () => {
    const moved = { vscode: 0, mcpServers: 0 };
    const refusals: string[] = [];
    for (const real of realFiles) {
      const source = file(real.text, real.format);
      const target = file('', other(real.format));
      for (const c of migrationCandidates(source, target)) {
        if (c.reason) {
          refusals.push(c.reason);
          continue;
        }
        const there = moveServer(source, target, c.name);
        assert.ok(there.ok, `${real.name} ${c.name}`);
        const read = serverOf(there.target, target.format, c.name);
        assert.ok(read, `${real.name}: ${c.name} is read from the new file`);
        assert.ok(!serverOf(there.source, source.format, c.name), `${real.name}: ${c.name} is gone from the old one`);
        assert.strictEqual(parseMcpConfig(there.target, { format: target.format }).diagnostics.filter((d) => d.severity === 'error').length, 0, `${real.name} ${c.name}: no error there`);
        // Back into what is left of its file: as written, but for what one format writes one way only.
        const back = moveServer(file(there.target, target.format), file(there.source, source.format), c.name);
        assert.ok(back.ok, `${real.name} ${c.name}: ${back.ok || back.reason}`);
        assert.deepStrictEqual(normalized(entryOf(back.target, source.format, c.name), source.format), normalized(entryOf(real.text, source.format, c.name), source.format), `${real.name} ${c.name}`);
        assert.deepStrictEqual(normalized(serverOf(back.target, source.format, c.name), source.format), normalized(serverOf(real.text, source.format, c.name), source.format), `${real.name} ${c.name}: runs the same`);
        // Through a file that takes comments, and back: every comment of the file is there again (the moved entry's
        // now at the end, with it).
        const withComment = file(`{\n  // shared\n  "${key(target.format)}": {}\n}\n`, target.format);
        const commented = moveServer(source, withComment, c.name);
        assert.ok(commented.ok);
        const home = moveServer(file(commented.target, target.format), file(commented.source, source.format), c.name);
        assert.ok(home.ok);
        assert.deepStrictEqual(commentsOf(home.target).sort(), commentsOf(real.text).sort(), `${real.name} ${c.name}: its comments`);
        assert.deepStrictEqual(commentsOf(home.source), ['// shared']);
        moved[source.format]++;
      }
    }
    // The corpus has servers of both formats that move, and some that cannot (inputs, a default, errors).
    assert.ok(moved.vscode >= 40 && moved.mcpServers >= 40, JSON.stringify(moved));
    assert.ok(refusals.every((r) => /asks for values \(\$\{input:|has a default|has errors in/.test(r)), refusals.join('\n'));
    assert.ok(refusals.filter((r) => r.includes('${input:')).length >= 8, refusals.join('\n'));
  });

  it('writes each format\'s variables and types: ${env:X} is ${X} there and back, Copilot CLI\'s "local" is stdio, the rest as written', () => {
    const vscode = `{
  "servers": {
    "api": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "pkg@1.0.0", "\${workspaceFolder}", "--home=\${userHome}"],
      "env": { "TOKEN": "\${env:API_TOKEN}", "ODD": "\${env:my-odd.name}", "PORT": 8080.0, "GONE": null },
      "cwd": "\${workspaceFolder}/srv",
      "gallery": "https://registry.modelcontextprotocol.io",
      "version": "1.0.0",
      "description": "kept as a note"
    }
  }
}
`;
    const r = moveServer(file(vscode, 'vscode'), file('', 'mcpServers'), 'api');
    assert.ok(r.ok);
    assert.deepStrictEqual(entryOf(r.target, 'mcpServers', 'api'), {
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'pkg@1.0.0', '${workspaceFolder}', '--home=${userHome}'],
      // A name the other format cannot write as ${NAME} keeps VS Code's form, which MCP Host reads there too.
      env: { TOKEN: '${API_TOKEN}', ODD: '${env:my-odd.name}', PORT: 8080.0, GONE: null },
      cwd: '${workspaceFolder}/srv',
      gallery: 'https://registry.modelcontextprotocol.io',
      version: '1.0.0',
      description: 'kept as a note',
    });
    // The number as written, not as JSON.stringify would write it.
    assert.ok(r.target.includes('"PORT": 8080.0'), r.target);

    const copilot = '{\n  "mcpServers": {\n    "fetch": { "type": "local", "command": "uvx", "args": ["mcp-server-fetch"], "env": { "KEY": "${FETCH_KEY}", "MODE": "${MODE:-}" }, "tools": ["*"] },\n    "web": { "type": "streamable-http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ${WEB_TOKEN}" } }\n  }\n}\n';
    const fetch = moveServer(file(copilot, 'mcpServers'), file('', 'vscode', 'your mcp.json'), 'fetch');
    assert.ok(fetch.ok);
    assert.deepStrictEqual(entryOf(fetch.target, 'vscode', 'fetch'), { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], env: { KEY: '${env:FETCH_KEY}', MODE: '${env:MODE}' }, tools: ['*'] });
    const web = moveServer(file(fetch.source, 'mcpServers'), file(fetch.target, 'vscode'), 'web');
    assert.ok(web.ok);
    assert.deepStrictEqual(entryOf(web.target, 'vscode', 'web'), { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${env:WEB_TOKEN}' } });
    assert.deepStrictEqual(JSON.parse(web.source), { mcpServers: {} });
  });

  it('keeps every comment of the file it leaves, and carries the entry\'s own into a file that takes comments', () => {
    const source = [
      '{',
      '\t// The team\'s servers.',
      '\t"servers": { // keyed by name',
      '\t\t"first": { "command": "a" },',
      '',
      '\t\t// About moving:',
      '\t\t/* two lines',
      '\t\t   of it */',
      '\t\t"moving": {',
      '\t\t\t"command": "node", // the runtime',
      '\t\t\t"args": ["server.js",],',
      '\t\t}, // after it',
      '\t\t// About last:',
      '\t\t"last": { "command": "z" }',
      '\t},',
      '\t"inputs": [] // none',
      '}',
      '',
    ].join('\r\n');
    const withComment = '{\n  // Servers Claude Code shares.\n  "mcpServers": {\n    "kept": { "command": "k" }\n  }\n}\n';
    const r = moveServer(file(source, 'vscode'), file(withComment, 'mcpServers'), 'moving');
    assert.ok(r.ok, r.ok ? undefined : r.reason);
    assert.strictEqual(
      r.source,
      ['{', '\t// The team\'s servers.', '\t"servers": { // keyed by name', '\t\t"first": { "command": "a" },', '', '\t\t// About last:', '\t\t"last": { "command": "z" }', '\t},', '\t"inputs": [] // none', '}', ''].join('\r\n'),
    );
    // Its comments with it, indented as the file indents; no trailing comma in the mcpServers file.
    assert.strictEqual(
      r.target,
      [
        '{',
        '  // Servers Claude Code shares.',
        '  "mcpServers": {',
        '    "kept": { "command": "k" },',
        '    // About moving:',
        '    /* two lines',
        '       of it */',
        '    "moving": {',
        '      "command": "node", // the runtime',
        '      "args": ["server.js"]',
        '    } // after it',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    assert.deepStrictEqual(r.notes, []);

    // Into a file without comments (Claude Code reads .mcp.json as plain JSON): none, and it is said.
    const plain = moveServer(file(source, 'vscode'), file('', 'mcpServers'), 'moving');
    assert.ok(plain.ok);
    assert.strictEqual(plain.target, '{\n  "mcpServers": {\n    "moving": {\n      "command": "node",\n      "args": ["server.js"]\n    }\n  }\n}\n');
    assert.doesNotThrow(() => JSON.parse(plain.target));
    assert.deepStrictEqual(plain.notes, ['its comments were not copied: .mcp.json has none, and Claude Code reads it as plain JSON']);

    // The first, the last, and one sharing its line with another: commas stay right, other comments stay.
    const first = moveServer(file(source, 'vscode'), file('', 'mcpServers'), 'first');
    assert.ok(first.ok && first.source.includes('"servers": { // keyed by name\r\n\r\n\t\t// About moving:'), first.ok ? first.source : first.reason);
    const last = moveServer(file(source, 'vscode'), file('', 'mcpServers'), 'last');
    assert.ok(last.ok && last.source.includes('\t\t} // after it\r\n\t},'), last.ok ? last.source : last.reason);
    assert.deepStrictEqual(Object.keys(JSON.parse(JSON.stringify(getNodeValue(parseTree(last.source, [], { allowTrailingComma: true })!)))), ['servers', 'inputs']);
    const oneLine = '{ "mcpServers": { "a": { "command": "a" }, "b": { "command": "b" }, "c": { "command": "c" } } }';
    for (const [name, left] of [['a', '{ "mcpServers": { "b": { "command": "b" }, "c": { "command": "c" } } }'], ['b', '{ "mcpServers": { "a": { "command": "a" }, "c": { "command": "c" } } }'], ['c', '{ "mcpServers": { "a": { "command": "a" }, "b": { "command": "b" } } }']]) {
      const moved = moveServer(file(oneLine, 'mcpServers'), file('', 'vscode'), name);
      assert.ok(moved.ok);
      assert.strictEqual(moved.source, left);
    }
  });

  it('leaves in place, with the reason, what the other file cannot hold or would not run the same', () => {
    const vscode = `{
  "servers": {
    "secret": { "command": "npx", "args": ["srv"], "env": { "KEY": "\${input:key}" } },
    "confined": { "command": "npx", "args": ["srv"], "sandboxEnabled": true },
    "shell": { "command": "srv", "args": ["\${HOME}"] },
    "broken": { "type": "stdio" },
    "twice": { "command": "one" },
    "twice": { "command": "two" },
    "taken": { "command": "srv" },
    "shadowed": { "command": "srv" },
    "fine": { "command": "srv", "envFile": "\${workspaceFolder}/.env", "dev": { "watch": "src/**" } }
  },
  "inputs": [{ "type": "promptString", "id": "key", "description": "Key", "password": true }]
}
`;
    const target = file('{ "mcpServers": { "taken": { "command": "other" } } }', 'mcpServers');
    const shadowing = [{ name: 'shadowed', where: "VS Code's user mcp.json" }];
    const reasons = Object.fromEntries(migrationCandidates(file(vscode, 'vscode'), target, shadowing).map((c) => [c.name, c.reason ?? c.notes.join('; ')]));
    assert.deepStrictEqual(reasons, {
      secret:
        'it asks for values (${input:key}), which .mcp.json cannot hold: VS Code\'s format keeps them in secret storage, asked once, and the other format has no inputs (as environment variables, each would have to be set by you)',
      confined: 'it runs confined ("sandboxEnabled"): Claude Code and Copilot CLI, which read .mcp.json too, would run it unconfined, and the file\'s "sandbox" rules have no place there',
      shell: '${HOME} would read as an environment variable in .mcp.json',
      broken: 'it has errors in .vscode/mcp.json: fix them first',
      twice: 'it is defined more than once in .vscode/mcp.json: keep one first',
      taken: '.mcp.json has a server of that name already (nothing is overwritten)',
      shadowed: "VS Code's user mcp.json has a server of that name too, which would run instead of it",
      fine: '"envFile" is read there by MCP Host, not by Claude Code or Copilot CLI; "dev" is read there by MCP Host, not by Claude Code or Copilot CLI',
    });

    const portable = '{ "mcpServers": { "defaulted": { "command": "srv", "env": { "LEVEL": "${LEVEL:-info}" } }, "confined": { "command": "srv", "sandboxEnabled": true } } }';
    const rules = file('{ "servers": {}, "sandbox": { "network": { "allowedDomains": ["example.com"] } } }', 'vscode');
    assert.deepStrictEqual(
      migrationCandidates(file(portable, 'mcpServers'), rules).map((c) => c.reason),
      ['${LEVEL:-info} has a default, which VS Code\'s format cannot write', 'it runs confined with the default rules: the "sandbox" rules of .vscode/mcp.json would apply to it there'],
    );
    // Without rules in the target, a confined server of an mcpServers file runs the same from VS Code's format.
    assert.ok(moveServer(file(portable, 'mcpServers'), file('', 'vscode'), 'confined').ok);
    // A target that cannot be edited refuses everything, and says why.
    assert.strictEqual((moveServer(file(vscode, 'vscode'), file('{ "mcpServers": { ', 'mcpServers'), 'fine') as { reason: string }).reason, '.mcp.json: The file has syntax errors; fix them first.');
  });

  it('migrates several at once: each moved one is written to the target and gone from the source, the others stay, and nothing is overwritten', () => {
    const source = '{\n  "servers": {\n    "a": { "command": "a" },\n    "b": { "command": "b", "env": { "K": "${input:k}" } },\n    "c": { "url": "https://c.example/mcp" }\n  },\n  "inputs": [{ "type": "promptString", "id": "k", "description": "K" }]\n}\n';
    const target = '{\n  "mcpServers": {\n    "c": { "command": "other-c" }\n  }\n}\n';
    const r = migrateServers(file(source, 'vscode', 'your mcp.json'), file(target, 'mcpServers', '~/.copilot/mcp-config.json'), ['a', 'b', 'c']);
    assert.deepStrictEqual(r.moved.map((m) => m.name), ['a']);
    assert.deepStrictEqual(r.stayed.map((s) => s.name), ['b', 'c']);
    assert.deepStrictEqual(JSON.parse(r.target), { mcpServers: { c: { command: 'other-c' }, a: { command: 'a' } } });
    assert.deepStrictEqual(Object.keys(parseMcpConfig(r.source).servers.map((s) => s.name)), ['0', '1']);
    // The input the one that stayed uses stays declared.
    assert.deepStrictEqual(parseMcpConfig(r.source).inputs.map((i) => i.id), ['k']);
  });

  it('translates an install\'s entry for the mcpServers format, and refuses one that asks for values', () => {
    assert.deepStrictEqual(translateEntry({ type: 'http', url: 'https://x.example/mcp', headers: { 'X-Key': '${env:X_KEY}' }, gallery: 'https://r.example', version: '1' }, 'vscode', 'mcpServers', '.mcp.json'), {
      ok: true,
      entry: { type: 'http', url: 'https://x.example/mcp', headers: { 'X-Key': '${X_KEY}' }, gallery: 'https://r.example', version: '1' },
      notes: [],
    });
    const refused = translateEntry({ command: 'npx', env: { KEY: '${input:key}' } }, 'vscode', 'mcpServers', '.mcp.json');
    assert.ok(!refused.ok && refused.reasons[0].startsWith('it asks for values (${input:key})'));
  });

  it('moves between real files on disk as the command does: the source keeps its comments and the server runs from the target', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-migrate-'));
    try {
      const real = realFiles.find((f) => f.name.endsWith('0GiS0__youtube-mcp-server__.vscode__mcp.json'))!;
      fs.mkdirSync(path.join(dir, '.vscode'));
      fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), real.text);
      const from = file(fs.readFileSync(path.join(dir, '.vscode', 'mcp.json'), 'utf8'), 'vscode');
      const names = migrationCandidates(from, file('', 'mcpServers')).map((c) => c.name);
      const r = migrateServers(from, file('', 'mcpServers'), names);
      fs.writeFileSync(path.join(dir, '.mcp.json'), r.target);
      fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), r.source);
      assert.deepStrictEqual(r.moved.map((m) => m.name), ['remote-mcp']);
      assert.deepStrictEqual(r.stayed.map((s) => s.name), ['stdio-mcp']);
      const left = fs.readFileSync(path.join(dir, '.vscode', 'mcp.json'), 'utf8');
      assert.ok(commentsOf(real.text).length >= 5);
      assert.deepStrictEqual(commentsOf(left), commentsOf(real.text));
      assert.deepStrictEqual(parseMcpConfig(fs.readFileSync(path.join(dir, '.mcp.json'), 'utf8'), { format: 'mcpServers' }).servers.map((s) => s.name), ['remote-mcp']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('writing a server into either format', () => {
  it('writes an mcpServers file (a new one, or one with comments) and refuses a server that asks for values there', () => {
    const added = writeServer('', { name: 'fetch', entry: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] }, inputs: [] }, 'fetch', 'mcpServers');
    assert.strictEqual(added.text, '{\n  "mcpServers": {\n    "fetch": {\n      "type": "stdio",\n      "command": "uvx",\n      "args": [\n        "mcp-server-fetch"\n      ]\n    }\n  }\n}\n');
    const commented = '{\n\t// Shared with Claude Code.\n\t"mcpServers": {\n\t\t"a": { "command": "a" } // first\n\t}\n}\n';
    const second = writeServer(commented, { name: 'b', entry: { command: 'b' }, inputs: [] }, 'b', 'mcpServers');
    assert.strictEqual(second.text, '{\n\t// Shared with Claude Code.\n\t"mcpServers": {\n\t\t"a": { "command": "a" }, // first\n\t\t"b": {\n\t\t\t"command": "b"\n\t\t}\n\t}\n}\n');
    assert.strictEqual(writeServer(second.text, { name: 'b', entry: { command: 'b2' }, inputs: [] }, 'b', 'mcpServers').replaced, true);
    assert.throws(
      () => writeServer('', { name: 'k', entry: { command: 'k', env: { K: '${input:k}' } }, inputs: [{ type: 'promptString', id: 'k', description: 'K', password: true }] }, 'k', 'mcpServers'),
      /This format has no "inputs": k asks for values \(k\) that only VS Code's format can hold\./,
    );
    // Removing leaves the rest as it was, comments included.
    assert.strictEqual(removeServer(second.text, 'b', 'mcpServers'), commented);
    assert.throws(() => removeServer(commented, 'zzz', 'mcpServers'), /There is no server "zzz"/);
  });

  it('finds the servers installed from a registry in an mcpServers file too', () => {
    const text = '{ "mcpServers": { "io.github.x/y": { "command": "npx", "gallery": "https://registry.modelcontextprotocol.io", "version": "1.0.0" } } }';
    assert.deepStrictEqual(registryOrigins(text, 'https://registry.modelcontextprotocol.io'), [{ name: 'io.github.x/y', version: '1.0.0' }]);
  });
});
