import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { serverNameCompletions } from '../../src/core/config/serverNameCompletions.lazy';
import { repoRoot } from './helpers';

/** A snippet string as the editor inserts it: placeholders get their default text, `^` marks raw JSON. */
function expand(value: unknown): unknown {
  if (typeof value === 'string') {
    const text = value.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\d+/g, '').replace(/\\\$/g, '$');
    return text.startsWith('^') ? JSON.parse(text.slice(1)) : text;
  }
  if (Array.isArray(value)) return value.map(expand);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [expand(k) as string, expand(v)]));
  return value;
}

describe('the snippets of mcp.schema.json', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, 'media', 'mcp.schema.json'), 'utf8'));
  const snippets = schema.properties.servers.defaultSnippets as { label: string; body: Record<string, unknown> }[];

  it('offer well-known servers', () => {
    const labels = snippets.map((s) => s.label);
    for (const name of ['everything (reference server)', 'filesystem', 'memory', 'fetch', 'git', 'playwright', 'github (remote)']) assert.ok(labels.includes(name), labels.join(', '));
  });

  it('each insert a server MCP Host accepts without a problem', () => {
    for (const snippet of snippets) {
      const parsed = parseMcpConfig(JSON.stringify({ servers: expand(snippet.body) }));
      assert.deepStrictEqual(parsed.diagnostics, [], snippet.label);
      assert.strictEqual(parsed.servers.length, 1, snippet.label);
    }
  });

  it("a server's own snippets (where its value goes) each insert a server that starts as is: no undeclared ${input:}", () => {
    const serverSnippets = schema.definitions.server.defaultSnippets as { label: string; body: Record<string, unknown> }[];
    assert.ok(serverSnippets.length >= 3);
    for (const snippet of serverSnippets) {
      assert.doesNotMatch(JSON.stringify(snippet.body), /\$\{input:/, snippet.label);
      const parsed = parseMcpConfig(JSON.stringify({ servers: { x: expand(snippet.body) } }));
      assert.deepStrictEqual(parsed.diagnostics, [], snippet.label);
    }
  });

  it('name the same well-known servers as the completion where a server name goes, with the same definitions', () => {
    const text = '{ "servers": {  } }';
    const offered = new Map(serverNameCompletions(text, text.indexOf('{  }') + 2, true).map((c) => [c.label, c]));
    for (const snippet of snippets) {
      const [name, body] = Object.entries(expand(snippet.body) as Record<string, unknown>)[0];
      if (name === 'name') continue;
      const completion = offered.get(name);
      assert.ok(completion, `${name} is offered where a server name goes`);
      const inserted = completion.snippet.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$0/g, '').replace(/\\([$}\\])/g, '$1');
      assert.deepStrictEqual(JSON.parse(`{${inserted}}`)[name], body, name);
    }
  });
});
