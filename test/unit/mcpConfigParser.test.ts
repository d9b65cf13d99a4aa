import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import type { ConfigDiagnostic, ParsedConfig, TextSpan } from '../../src/core/config/serverDefinition';
import { repoRoot } from './helpers';

/** The span of the nth occurrence of `needle` in `text`, so expectations never hard-code offsets. */
function spanOf(text: string, needle: string, nth = 0): TextSpan {
  let offset = -1;
  for (let i = 0; i <= nth; i++) {
    offset = text.indexOf(needle, offset + 1);
    assert.ok(offset >= 0, `"${needle}" (#${nth}) not found in the test text`);
  }
  return { offset, length: needle.length };
}

function only(parsed: ParsedConfig, code: string): ConfigDiagnostic {
  const found = parsed.diagnostics.filter((d) => d.code === code);
  assert.strictEqual(found.length, 1, `expected one '${code}' diagnostic, got ${JSON.stringify(parsed.diagnostics)}`);
  return found[0];
}

function assertDiagnostic(parsed: ParsedConfig, code: string, span: TextSpan, severity: 'error' | 'warning' = 'error'): ConfigDiagnostic {
  const d = only(parsed, code);
  assert.deepStrictEqual(d.span, span, `span of '${code}': ${d.message}`);
  assert.strictEqual(d.severity, severity);
  assert.ok(d.message.length > 0);
  return d;
}

const names = (p: ParsedConfig): string[] => p.servers.map((s) => s.name);

describe('parseMcpConfig', () => {
  describe('valid files', () => {
    it('reads stdio and remote servers with comments and trailing commas', () => {
      const text = `{
  // Servers of this folder
  "servers": {
    "files": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}",],
      "env": { "DEBUG": "1", "PORT": 8080, "RATIO": 1.50, "HOME_OVERRIDE": null, },
      "envFile": "\${workspaceFolder}/.env",
      "cwd": "sub",
    },
    /* remote */
    "remote": { "type": "sse", "url": "https://example.com/sse", "headers": { "Authorization": "Bearer \${input:token}" } },
  },
  "inputs": [
    { "type": "promptString", "id": "token", "description": "Token", "password": true, },
    { "type": "pickString", "id": "level", "description": "Level", "options": ["a", "b"], "default": "a" },
  ],
}`;
      const parsed = parseMcpConfig(text);
      assert.deepStrictEqual(parsed.diagnostics, []);
      assert.strictEqual(parsed.syntaxBroken, false);
      assert.deepStrictEqual(parsed.rejectedServers, []);
      assert.deepStrictEqual(parsed.servers, [
        {
          name: 'files',
          nameSpan: spanOf(text, '"files"'),
          server: {
            type: 'stdio',
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}'],
            env: { DEBUG: '1', PORT: '8080', RATIO: '1.50', HOME_OVERRIDE: null },
            envFile: '${workspaceFolder}/.env',
            cwd: 'sub',
          },
        },
        {
          name: 'remote',
          nameSpan: spanOf(text, '"remote"'),
          server: { type: 'sse', url: 'https://example.com/sse', headers: { Authorization: 'Bearer ${input:token}' } },
        },
      ]);
      assert.deepStrictEqual(parsed.inputs, [
        { type: 'promptString', id: 'token', description: 'Token', password: true },
        { type: 'pickString', id: 'level', description: 'Level', options: ['a', 'b'], default: 'a' },
      ]);
    });

    it('infers stdio from command and http from url, and fills defaults', () => {
      const parsed = parseMcpConfig('{ "servers": { "a": { "command": "node" }, "b": { "url": "http://localhost:3000/mcp" } } }');
      assert.deepStrictEqual(parsed.diagnostics, []);
      assert.deepStrictEqual(
        parsed.servers.map((s) => s.server),
        [
          { type: 'stdio', command: 'node', args: [], env: {} },
          { type: 'http', url: 'http://localhost:3000/mcp', headers: {} },
        ],
      );
    });

    it('treats an empty or comment-only file as an empty configuration', () => {
      for (const text of ['', '  \n', '// nothing yet\n']) {
        assert.deepStrictEqual(parseMcpConfig(text), { servers: [], inputs: [], diagnostics: [], syntaxBroken: false, rejectedServers: [], dialect: 'vscode' });
      }
    });

    it('accepts $schema at the top level', () => {
      assert.deepStrictEqual(parseMcpConfig('{ "$schema": "x", "servers": {} }').diagnostics, []);
    });
  });

  describe('syntax errors', () => {
    it('words a missing quote plainly, with its likely cause', () => {
      const text = '{ "servers": { "a": { "command": node" } } }';
      const parsed = parseMcpConfig(text);
      assert.strictEqual(parsed.diagnostics.length, 1);
      assert.match(parsed.diagnostics[0].message, /quote is missing|is a quote missing/);
      assert.doesNotMatch(parsed.diagnostics[0].message, /Invalid symbol/);
    });

    it('reports the error where jsonc-parser finds it and keeps nothing', () => {
      const text = '{ "servers": { "good": { "command": "node" } "bad": {} } }';
      const parsed = parseMcpConfig(text);
      assert.strictEqual(parsed.syntaxBroken, true);
      assert.deepStrictEqual(parsed.servers, []);
      assert.deepStrictEqual(parsed.inputs, []);
      const d = assertDiagnostic(parsed, 'syntax', spanOf(text, '"bad"'));
      assert.strictEqual(d.message, 'A comma is missing before this');
    });

    it('reports an unterminated string and a missing closing brace', () => {
      const text = '{ "servers": { "a": { "command": "node } }';
      const parsed = parseMcpConfig(text);
      assert.strictEqual(parsed.syntaxBroken, true);
      assert.strictEqual(parsed.diagnostics.length, 1);
      assert.ok(parsed.diagnostics.every((d) => d.code === 'syntax' && d.severity === 'error'));
      assert.deepStrictEqual(parsed.diagnostics[0].span, { offset: text.indexOf('"node'), length: text.length - text.indexOf('"node') });
      assert.strictEqual(parsed.diagnostics[0].message, 'This text is never closed: its closing quote is missing');
    });

    it('reports one problem for one fault, not every error the parser stumbles on after it', () => {
      const text = '{ "servers": { "a": { "command": "node", "args": ["x" }, "b": {"command": "x"}, "c": {"command":"y"} } }';
      const parsed = parseMcpConfig(text);
      assert.strictEqual(parsed.diagnostics.length, 1);
      assert.strictEqual(parsed.diagnostics[0].message, 'A comma is missing before this');
      assert.strictEqual(parsed.diagnostics[0].span.offset, text.indexOf(' }, "b"') + 1);
    });
  });

  describe('structure', () => {
    it('requires an object at the top level', () => {
      const text = '[ 1, 2 ]';
      const parsed = parseMcpConfig(text);
      assert.strictEqual(parsed.syntaxBroken, false);
      assertDiagnostic(parsed, 'wrong-type', spanOf(text, text));
    });

    it('warns about unknown top-level keys, with a hint for mcpServers', () => {
      const text = '{ "servers": {}, "extra": 1, "mcpServers": {} }';
      const parsed = parseMcpConfig(text);
      assert.deepStrictEqual(
        parsed.diagnostics.map((d) => [d.code, d.severity, d.span]),
        [
          ['unknown-property', 'warning', spanOf(text, '"extra"')],
          ['unknown-property', 'warning', spanOf(text, '"mcpServers"')],
        ],
      );
      assert.match(parsed.diagnostics[1].message, /"servers"/);
    });

    it('requires servers to be an object and inputs an array', () => {
      const text = '{ "servers": [], "inputs": {} }';
      const parsed = parseMcpConfig(text);
      assert.deepStrictEqual(
        parsed.diagnostics.map((d) => [d.code, d.span]),
        [
          ['wrong-type', spanOf(text, '[]')],
          ['wrong-type', spanOf(text, '{}')],
        ],
      );
    });

    it('sorts diagnostics by position', () => {
      const text = '{ "servers": { "b": { "type": "nope" }, "a": {} }, "zzz": 1 }';
      const offsets = parseMcpConfig(text).diagnostics.map((d) => d.span.offset);
      assert.deepStrictEqual(offsets, [...offsets].sort((x, y) => x - y));
      assert.strictEqual(offsets.length, 3);
    });
  });

  describe('server diagnostics', () => {
    it('unknown-type on the type value; the other servers are kept', () => {
      const text = '{ "servers": { "x": { "type": "websocket", "url": "ws://h" }, "good": { "command": "node" } } }';
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'unknown-type', spanOf(text, '"websocket"'));
      assert.deepStrictEqual(names(parsed), ['good']);
      assert.deepStrictEqual(parsed.rejectedServers, ['x']);
    });

    it('an env key holding "=" (the child would read NODE_OPTIONS): invalid-env-name on the key, the server refused', () => {
      const text = '{ "servers": { "x": { "command": "node", "env": { "NODE_OPTIONS=--require ./evil.js #": "1", "OK": "1" } } } }';
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'invalid-env-name', spanOf(text, '"NODE_OPTIONS=--require ./evil.js #"'));
      assert.deepStrictEqual(parsed.rejectedServers, ['x']);
    });

    it('an auth endpoint that is not https (or loopback http for a loopback server): insecure-auth-endpoint, the server refused', () => {
      const text = JSON.stringify({
        servers: {
          x: { url: 'https://mcp.example/mcp', auth: { type: 'clientCredentials', clientId: 'c', clientSecret: '${env:S}', issuer: 'http://login.example' } },
          y: { url: 'https://mcp.example/mcp', auth: { type: 'crossAppAccess', clientId: 'c', idp: { tokenEndpoint: 'http://localhost:9/token', clientId: 'i', idToken: '${env:T}' } } },
          local: { url: 'http://127.0.0.1:3000/mcp', auth: { type: 'clientCredentials', clientId: 'c', clientSecret: '${env:S}', issuer: 'http://127.0.0.1:3001' } },
        },
      });
      const parsed = parseMcpConfig(text);
      const found = parsed.diagnostics.filter((d) => d.code === 'insecure-auth-endpoint');
      assert.deepStrictEqual(found.map((d) => text.slice(d.span.offset, d.span.offset + d.span.length)), ['"http://login.example"', '"http://localhost:9/token"']);
      assert.deepStrictEqual(parsed.rejectedServers, ['x', 'y']);
      assert.deepStrictEqual(names(parsed), ['local']);
    });

    it('missing-command on the server key', () => {
      const text = '{ "servers": { "x": { "type": "stdio", "args": [] } } }';
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'missing-command', spanOf(text, '"x"'));
      assert.deepStrictEqual(parsed.servers, []);
      assert.deepStrictEqual(parsed.rejectedServers, ['x']);
    });

    it('missing-command on the key when neither command nor url is given', () => {
      const text = '{ "servers": { "empty": {} } }';
      assertDiagnostic(parseMcpConfig(text), 'missing-command', spanOf(text, '"empty"'));
    });

    it('missing-command on an empty command value', () => {
      const text = '{ "servers": { "x": { "command": "  " } } }';
      assertDiagnostic(parseMcpConfig(text), 'missing-command', spanOf(text, '"  "'));
    });

    it('missing-url on the server key', () => {
      const text = '{ "servers": { "r": { "type": "http", "headers": {} } } }';
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'missing-url', spanOf(text, '"r"'));
      assert.deepStrictEqual(parsed.servers, []);
    });

    it('invalid-url on the url value', () => {
      for (const url of ['not a url', 'ws://example.com/mcp', 'file:///tmp/x', 'localhost:${env:PORT}/mcp', 'ftp://${env:HOST}/']) {
        const text = `{ "servers": { "r": { "type": "http", "url": ${JSON.stringify(url)} } } }`;
        const parsed = parseMcpConfig(text);
        assertDiagnostic(parsed, 'invalid-url', spanOf(text, JSON.stringify(url)));
        assert.deepStrictEqual(parsed.servers, [], url);
      }
    });

    it('allows URLs whose parts are still variables', () => {
      for (const url of ['${input:url}', '${env:HOST}/mcp', 'https://${env:HOST}:${env:PORT}/mcp', 'http://localhost:${env:PORT}']) {
        const parsed = parseMcpConfig(`{ "servers": { "r": { "url": ${JSON.stringify(url)} } }, "inputs": [{ "type": "promptString", "id": "url", "description": "URL" }] }`);
        assert.deepStrictEqual(parsed.diagnostics, [], url);
        assert.deepStrictEqual(names(parsed), ['r']);
      }
    });

    it('wrong-type on every mistyped property, at the offending value', () => {
      const cases: Array<[string, string]> = [
        ['{ "command": 42 }', '42'],
        ['{ "command": "node", "args": "--flag" }', '"--flag"'],
        ['{ "command": "node", "args": ["ok", 3] }', '3'],
        ['{ "command": "node", "env": ["A=1"] }', '["A=1"]'],
        ['{ "command": "node", "env": { "A": { "nested": true } } }', '{ "nested": true }'],
        ['{ "command": "node", "env": { "A": false } }', 'false'],
        ['{ "command": "node", "envFile": 1 }', '1'],
        ['{ "command": "node", "cwd": [] }', '[]'],
        ['{ "type": 1, "command": "node" }', '1'],
        ['{ "url": true }', 'true'],
        ['{ "url": "https://h", "headers": { "X-Key": 5 } }', '5'],
        ['{ "url": "https://h", "headers": "Authorization: x" }', '"Authorization: x"'],
        ['"npx server"', '"npx server"'],
      ];
      for (const [entry, bad] of cases) {
        const text = `{ "servers": { "s": ${entry} } }`;
        const parsed = parseMcpConfig(text);
        assertDiagnostic(parsed, 'wrong-type', spanOf(text, bad));
        assert.deepStrictEqual(parsed.servers, [], entry);
        assert.deepStrictEqual(parsed.rejectedServers, ['s'], entry);
      }
    });

    it('duplicate-name on the second key; the first definition is kept', () => {
      const text = '{ "servers": { "dup": { "command": "first" }, "dup": { "command": "second" } } }';
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'duplicate-name', spanOf(text, '"dup"', 1));
      assert.deepStrictEqual(names(parsed), ['dup']);
      assert.strictEqual(parsed.servers[0].server.type === 'stdio' && parsed.servers[0].server.command, 'first');
      assert.deepStrictEqual(parsed.servers[0].nameSpan, spanOf(text, '"dup"', 0));
      // The kept definition is current: nothing to fall back on for that name.
      assert.deepStrictEqual(parsed.rejectedServers, []);
    });

    it('unknown-input on the string that references an undeclared input', () => {
      const text = '{ "servers": { "s": { "command": "node", "args": ["--key=${input:key}", "${input:ok}"] } }, "inputs": [{ "type": "promptString", "id": "ok", "description": "d" }] }';
      const parsed = parseMcpConfig(text);
      const d = assertDiagnostic(parsed, 'unknown-input', spanOf(text, '"--key=${input:key}"'));
      assert.match(d.message, /"key"/);
      assert.deepStrictEqual(parsed.servers, []);
    });

    it('unknown-input in env values, headers, url, envFile and cwd', () => {
      const strings: Array<[string, string]> = [
        ['{ "command": "node", "env": { "K": "${input:nope}" } }', '"${input:nope}"'],
        ['{ "command": "${input:nope}" }', '"${input:nope}"'],
        ['{ "command": "node", "envFile": "${input:nope}" }', '"${input:nope}"'],
        ['{ "command": "node", "cwd": "${input:nope}" }', '"${input:nope}"'],
        ['{ "url": "https://h/${input:nope}" }', '"https://h/${input:nope}"'],
        ['{ "url": "https://h", "headers": { "A": "Bearer ${input:nope}" } }', '"Bearer ${input:nope}"'],
      ];
      for (const [entry, bad] of strings) {
        const text = `{ "servers": { "s": ${entry} } }`;
        assertDiagnostic(parseMcpConfig(text), 'unknown-input', spanOf(text, bad));
      }
    });

    it('unknown-input when the referenced input itself has errors', () => {
      const text = '{ "servers": { "s": { "command": "${input:broken}" } }, "inputs": [{ "type": "promptString", "id": "broken" }] }';
      const parsed = parseMcpConfig(text);
      const d = assertDiagnostic(parsed, 'unknown-input', spanOf(text, '"${input:broken}"'));
      assert.match(d.message, /has errors/);
      assert.deepStrictEqual(parsed.servers, []);
    });

    it('unsupported-variable is a warning and keeps the server', () => {
      const text = '{ "servers": { "s": { "command": "node", "args": ["${foo}", "${command:pick.port}", "${env:OK}", "${/}", "${userHome}", "${bar:x}"] } } }';
      const parsed = parseMcpConfig(text);
      assert.deepStrictEqual(
        parsed.diagnostics.map((d) => [d.code, d.severity, d.span]),
        [
          ['unsupported-variable', 'warning', spanOf(text, '"${foo}"')],
          ['unsupported-variable', 'warning', spanOf(text, '"${bar:x}"')],
        ],
      );
      assert.deepStrictEqual(names(parsed), ['s']);
    });

    it('warns about properties a server type does not use and keeps the server', () => {
      const text = '{ "servers": { "s": { "command": "node", "url": "https://h", "timeout": 30 } } }';
      const parsed = parseMcpConfig(text);
      assert.deepStrictEqual(
        parsed.diagnostics.map((d) => [d.code, d.severity, d.span]),
        [
          ['unknown-property', 'warning', spanOf(text, '"url"')],
          ['unknown-property', 'warning', spanOf(text, '"timeout"')],
        ],
      );
      assert.deepStrictEqual(names(parsed), ['s']);
    });

    it('warns about a duplicate property inside a server and uses the first', () => {
      const text = '{ "servers": { "s": { "command": "node", "env": { "A": "1", "A": "2" } } } }';
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'duplicate-property', spanOf(text, '"A"', 1), 'warning');
      const server = parsed.servers[0].server;
      assert.deepStrictEqual(server.type === 'stdio' && server.env, { A: '1' });
    });

    it('one bad server never hides the good ones', () => {
      const text = `{
  "servers": {
    "one": { "command": "node", "args": ["a"] },
    "bad1": { "type": "stdio" },
    "two": { "type": "http", "url": "https://example.com/mcp" },
    "bad2": { "url": "gopher://x" },
    "three": { "command": "python", "args": ["\${unknown}"] },
  },
}`;
      const parsed = parseMcpConfig(text);
      assert.deepStrictEqual(names(parsed), ['one', 'two', 'three']);
      assert.deepStrictEqual(parsed.rejectedServers, ['bad1', 'bad2']);
      assert.deepStrictEqual(
        parsed.diagnostics.map((d) => d.code),
        ['missing-command', 'invalid-url', 'unsupported-variable'],
      );
    });
  });

  describe('input diagnostics', () => {
    const withInputs = (inputs: string): string => `{ "servers": {}, "inputs": [${inputs}] }`;

    it('missing id, on the opening brace', () => {
      const text = withInputs('{ "type": "promptString", "description": "d" }');
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'missing-input-property', { offset: text.indexOf('{ "type"'), length: 1 });
      assert.deepStrictEqual(parsed.inputs, []);
    });

    it('missing type and missing description, on the id', () => {
      const text = withInputs('{ "id": "a" }');
      const parsed = parseMcpConfig(text);
      const found = parsed.diagnostics.filter((d) => d.code === 'missing-input-property');
      assert.strictEqual(found.length, 2);
      for (const d of found) assert.deepStrictEqual(d.span, spanOf(text, '"a"'));
      assert.ok(found.some((d) => /"description"/.test(d.message)));
      assert.ok(found.some((d) => /"type"/.test(d.message)));
      assert.deepStrictEqual(parsed.inputs, []);
    });

    it('unknown input type, on the type value', () => {
      const text = withInputs('{ "type": "shellCommand", "id": "a", "description": "d" }');
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'unknown-input-type', spanOf(text, '"shellCommand"'));
      assert.deepStrictEqual(parsed.inputs, []);
    });

    it('pickString without options, and with an empty list', () => {
      let text = withInputs('{ "type": "pickString", "id": "a", "description": "d" }');
      assertDiagnostic(parseMcpConfig(text), 'missing-options', spanOf(text, '"a"'));
      text = withInputs('{ "type": "pickString", "id": "a", "description": "d", "options": [] }');
      assertDiagnostic(parseMcpConfig(text), 'missing-options', spanOf(text, '[]'));
    });

    it('duplicate input id, on the second id; the first is kept', () => {
      const text = withInputs('{ "type": "promptString", "id": "a", "description": "first" }, { "type": "promptString", "id": "a", "description": "second" }');
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'duplicate-input', spanOf(text, '"a"', 1));
      assert.deepStrictEqual(parsed.inputs, [{ type: 'promptString', id: 'a', description: 'first', password: false }]);
    });

    it('wrong types inside inputs', () => {
      const cases: Array<[string, string]> = [
        ['"token"', '"token"'],
        ['{ "type": "promptString", "id": 7, "description": "d" }', '7'],
        ['{ "type": "promptString", "id": "a", "description": "d", "password": "yes" }', '"yes"'],
        ['{ "type": "pickString", "id": "a", "description": "d", "options": ["x", 2] }', '2'],
        ['{ "type": "promptString", "id": "a", "description": "d", "default": 1 }', '1'],
      ];
      for (const [input, bad] of cases) {
        const text = withInputs(input);
        const parsed = parseMcpConfig(text);
        assertDiagnostic(parsed, 'wrong-type', spanOf(text, bad));
        assert.deepStrictEqual(parsed.inputs, [], input);
      }
    });

    it('warns about properties an input type does not use', () => {
      const text = withInputs('{ "type": "pickString", "id": "a", "description": "d", "options": ["x"], "password": true }');
      const parsed = parseMcpConfig(text);
      assertDiagnostic(parsed, 'unknown-property', spanOf(text, '"password"'), 'warning');
      assert.strictEqual(parsed.inputs.length, 1);
    });
  });
});

describe('media/mcp.schema.json', () => {
  type Schema = {
    properties?: Record<string, Schema & { description?: string; markdownDescription?: string }>;
    definitions?: Record<string, Schema>;
    additionalProperties?: Schema | boolean;
    [key: string]: unknown;
  };
  const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, 'media', 'mcp.schema.json'), 'utf8')) as Schema;
  const defs = schema.definitions!;

  const sample = `{
  "servers": {
    "local": {
      "type": "stdio", "command": "npx", "args": ["-y", "pkg"], "env": { "A": "1", "B": 2, "C": null },
      "envFile": "\${workspaceFolder}/.env", "cwd": "\${workspaceFolder}", "disabled": false
    },
    "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${input:token}" }, "disabled": false },
    "legacy": { "type": "sse", "url": "https://example.com/sse" },
    "implicit": { "url": "https://example.com/mcp" }
  },
  "inputs": [
    { "type": "promptString", "id": "token", "description": "Token", "password": true, "default": "" },
    { "type": "pickString", "id": "level", "description": "Level", "options": ["a"], "default": "a" }
  ]
}`;

  it('is a draft-07 schema with server and input definitions', () => {
    assert.strictEqual(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    for (const name of ['server', 'stdioServer', 'remoteServer', 'input', 'promptStringInput', 'pickStringInput']) assert.ok(defs[name], name);
  });

  it('describes every server and input property', () => {
    for (const name of ['stdioServer', 'remoteServer', 'promptStringInput', 'pickStringInput']) {
      for (const [prop, s] of Object.entries(defs[name].properties!)) {
        assert.ok(s.description || s.markdownDescription, `${name}.${prop} has no description`);
      }
    }
  });

  it('knows every property of a valid sample, which the parser accepts without a diagnostic', () => {
    const parsed = parseMcpConfig(sample);
    assert.deepStrictEqual(parsed.diagnostics, []);
    assert.strictEqual(parsed.servers.length, 4);

    const config = JSON.parse(sample) as { servers: Record<string, Record<string, unknown>>; inputs: Array<Record<string, unknown>> };
    const keysOf = (s: Schema): string[] => Object.keys(s.properties ?? {});
    for (const key of Object.keys(config)) assert.ok(keysOf(schema).includes(key), key);
    for (const [name, server] of Object.entries(config.servers)) {
      const remote = server.type === 'http' || server.type === 'sse' || (!('type' in server) && !('command' in server));
      const branch = defs[remote ? 'remoteServer' : 'stdioServer'];
      for (const key of Object.keys(server)) assert.ok(keysOf(branch).includes(key), `${name}.${key}`);
      for (const required of (branch.required as string[]) ?? []) assert.ok(required in server, `${name} lacks ${required}`);
    }
    for (const input of config.inputs) {
      const branch = defs[input.type === 'pickString' ? 'pickStringInput' : 'promptStringInput'];
      for (const key of Object.keys(input)) assert.ok(keysOf(branch).includes(key), `${String(input.id)}.${key}`);
    }
  });

  it('has the same server types as the parser', () => {
    const typeEnum = (defs.server.properties!.type as { enum: string[] }).enum;
    assert.deepStrictEqual(typeEnum, ['stdio', 'http', 'sse']);
    for (const t of typeEnum) {
      const entry = t === 'stdio' ? '{ "type": "stdio", "command": "x" }' : `{ "type": "${t}", "url": "https://h" }`;
      assert.deepStrictEqual(parseMcpConfig(`{ "servers": { "s": ${entry} } }`).diagnostics, [], t);
    }
  });
});
