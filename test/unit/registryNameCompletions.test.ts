import * as assert from 'assert';
import { registryNameCompletions } from '../../src/core/features/mcpRegistry/registryNameCompletions.lazy';
import { serverNameContext } from '../../src/core/config/serverNameCompletions.lazy';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { RegistryClient } from '../../src/core/features/mcpRegistry/registryClient';
import { startFixtureRegistry, type FixtureRegistry } from './registryTestKit';

/** The text after a completion: its snippet (tab stops at their defaults) in place of the typed name, and its inputs edit. */
function accept(text: string, item: { snippet: string; replace: { start: number; end: number }; inputsEdit?: { offset: number; text: string } }): string {
  const snippet = item.snippet.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$0/g, '').replace(/\\([$}\\])/g, '$1');
  const edits = [{ start: item.replace.start, end: item.replace.end, text: snippet }, ...(item.inputsEdit ? [{ start: item.inputsEdit.offset, end: item.inputsEdit.offset, text: item.inputsEdit.text }] : [])];
  return edits.sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.text + t.slice(e.end), text);
}

describe('registryNameCompletions (mcp.json, the registry where a server name goes)', () => {
  let registry: FixtureRegistry;
  before(async () => (registry = await startFixtureRegistry()));
  after(() => registry.close());

  const complete = async (withCursor: string, query: string) => {
    const offset = withCursor.indexOf('|');
    const text = withCursor.replace('|', '');
    const at = serverNameContext(text, offset)!;
    assert.ok(at, 'a name is being typed');
    const entries = (await new RegistryClient(registry.url).search(query)).entries;
    return { text, at, items: registryNameCompletions(text, at, entries, registry.url) };
  };

  it('offers a matching registry server as a whole entry whose inputs are declared by the same completion, in a file with comments', async () => {
    const { text, at, items } = await complete('{\n  // mine\n  "servers": {\n    "a": { "command": "node" },\n    "weat|\n  }\n}\n', 'weather');
    assert.strictEqual(at.typed, 'weat');
    const weather = items.find((i) => i.label === 'io.github.example/weather');
    assert.ok(weather, items.map((i) => i.label).join(', '));
    assert.match(weather.detail, /uvx mcp-weather==0\.4\.1/);
    const after = accept(text, weather);
    assert.match(after, /\/\/ mine/, 'comments kept');
    const parsed = parseMcpConfig(after);
    assert.deepStrictEqual(parsed.diagnostics.filter((d) => d.severity === 'error'), [], after);
    const server = parsed.servers.find((s) => s.name === 'io.github.example/weather');
    assert.ok(server && server.server.type === 'stdio' && server.server.command === 'uvx', after);
    const ids = parsed.inputs.map((i) => i.id);
    for (const ref of after.matchAll(/\$\{input:([^}]+)\}/g)) assert.ok(ids.includes(ref[1]), `input ${ref[1]} declared in:\n${after}`);
    assert.ok(parsed.inputs.some((i) => i.type === 'promptString' && i.password), 'the API key is a password input');
  });

  it('in an mcpServers file, which has no inputs, offers only the servers that ask for none, written as that format writes them', async () => {
    const { text, at, items } = await complete('{\n  "mcpServers": {\n    "ex|\n  }\n}\n', 'example');
    assert.strictEqual(at.format, 'mcpServers');
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('com.example/legacy-events'), labels.join(', '));
    for (const asking of ['io.github.example/weather', 'com.example/remote-search', 'io.github.example/postgres']) assert.ok(!labels.includes(asking), `${asking} offered: ${labels.join(', ')}`);
    for (const item of items) {
      assert.strictEqual(item.inputsEdit, undefined);
      const after = accept(text, item);
      assert.ok(!after.includes('${input:') && !after.includes('"inputs"'), after);
      const parsed = parseMcpConfig(after, { format: 'mcpServers' });
      assert.deepStrictEqual(parsed.diagnostics.filter((d) => d.severity === 'error'), [], after);
      assert.deepStrictEqual(parsed.servers.map((s) => s.name), [item.label], after);
    }
  });

  it('appends to an existing "inputs" array and declares nothing twice', async () => {
    const { text, items } = await complete('{\n  "inputs": [\n    { "type": "promptString", "id": "x", "description": "x" }\n  ],\n  "servers": {\n    "weat|\n  }\n}\n', 'weather');
    const weather = items.find((i) => i.label === 'io.github.example/weather')!;
    const once = accept(text, weather);
    const parsed = parseMcpConfig(once);
    assert.deepStrictEqual(parsed.diagnostics.filter((d) => d.severity === 'error'), [], once);
    assert.ok(parsed.inputs.some((i) => i.id === 'x'));
    const ids = parsed.inputs.map((i) => i.id);
    assert.strictEqual(new Set(ids).size, ids.length, once);
  });

  it('leaves out what cannot run here, what is malformed, what smuggles a variable, and names already in the file', async () => {
    const { items } = await complete('{\n  "servers": {\n    "io.github.example/postgres": { "command": "x" },\n    "ex|\n  }\n}\n', 'example');
    const labels = items.map((i) => i.label);
    for (const left of ['io.github.example/broken', 'io.github.example/sneaky', 'io.github.example/postgres']) assert.ok(!labels.includes(left), `${left} offered: ${labels.join(', ')}`);
    assert.ok(labels.includes('io.github.example/weather'), labels.join(', '));
  });
});
