import * as assert from 'assert';
import { parse } from 'jsonc-parser';
import { serverNameCompletions } from '../../src/core/config/serverNameCompletions.lazy';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';

/** The text with `|` as the cursor: completions there. */
const at = (textWithCursor: string, invoked = false) => {
  const offset = textWithCursor.indexOf('|');
  const text = textWithCursor.replace('|', '');
  return { text, offset, items: serverNameCompletions(text, offset, invoked) };
};

/** The text after inserting an item, its snippet's tab stops filled with their defaults. */
const inserted = (text: string, item: { snippet: string; replace: { start: number; end: number } }) =>
  text.slice(0, item.replace.start) + item.snippet.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$0/g, '').replace(/\\([$}\\])/g, '$1') + text.slice(item.replace.end);

describe('serverNameCompletions (mcp.json, where a server name goes)', () => {
  it('offers well-known servers where a server name goes, each a whole entry that parses', () => {
    const { text, items } = at('{\n  "servers": {\n    |\n  }\n}', true);
    const names = items.map((i) => i.label);
    assert.ok(['everything', 'filesystem', 'memory', 'fetch', 'git'].every((n) => names.includes(n)), names.join(', '));
    const everything = items.find((i) => i.label === 'everything')!;
    assert.match(everything.detail, /server-everything/);
    assert.deepStrictEqual(parse(inserted(text, everything)), { servers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } });
    const filesystem = items.find((i) => i.label === 'filesystem')!;
    assert.deepStrictEqual((parse(inserted(text, filesystem)) as { servers: { filesystem: { args: string[] } } }).servers.filesystem.args.at(-1), '${workspaceFolder}');
  });

  it('replaces the name being typed, adds a comma before a following entry, and leaves out names already there', () => {
    const { text, items } = at('{\n  "servers": {\n    "mem|"\n    "everything": { "command": "x" }\n  }\n}');
    assert.ok(!items.some((i) => i.label === 'everything'), 'already configured');
    const memory = items.find((i) => i.label === 'memory')!;
    const result = parse(inserted(text, memory)) as { servers: Record<string, unknown> };
    assert.deepStrictEqual(Object.keys(result.servers), ['memory', 'everything']);
  });

  it('offers them while a name is typed between its quotes, the closing quote not typed yet too', () => {
    const typing = at('{\n  "servers": {\n    "a": { "command": "x" },\n    "fi|\n  }\n}');
    assert.ok(typing.items.some((i) => i.label === 'filesystem'));
    assert.deepStrictEqual(typing.items[0].replace, { start: typing.text.indexOf('"fi'), end: typing.text.indexOf('"fi') + 3 });
    assert.ok(at('{ "servers": { "|" } }').items.length > 0, 'just after the opening quote');
  });

  it('offers nothing where Enter or typing goes on: at an empty line unless asked, after the name, for a name with its value', () => {
    assert.deepStrictEqual(at('{\n  "servers": {\n    |\n  }\n}').items, [], 'an empty line, not asked');
    assert.deepStrictEqual(at('{\n  "servers": {\n    "my-server"|\n  }\n}').items, [], 'after the closing quote');
    assert.deepStrictEqual(at('{\n  "servers": {\n    "my-server"|\n  }\n}', true).items, [], 'after the closing quote, asked');
    assert.deepStrictEqual(at('{\n  "servers": {\n    "mem|": { "command": "x" }\n  }\n}').items, [], 'renaming a server');
  });

  it('offers them in an mcpServers file (.mcp.json, ~/.copilot/mcp-config.json) too, written under "mcpServers"', () => {
    const { text, items } = at('{\n  "mcpServers": {\n    "memory": { "command": "x" },\n    "fil|\n  }\n}');
    assert.ok(!items.some((i) => i.label === 'memory'), 'already configured');
    const filesystem = items.find((i) => i.label === 'filesystem')!;
    assert.ok(filesystem, items.map((i) => i.label).join(', '));
    const parsed = parseMcpConfig(inserted(text, filesystem), { format: 'mcpServers' });
    assert.deepStrictEqual(parsed.diagnostics.filter((d) => d.severity === 'error'), []);
    assert.deepStrictEqual(parsed.servers.map((s) => s.name), ['memory', 'filesystem']);
    assert.deepStrictEqual(at('{ "mcpServers": { "a": { "|" } } }', true).items, [], 'inside a server');
    assert.deepStrictEqual(at('{ "constructor": { "|" } }', true).items, [], 'another key');
  });

  it('offers nothing elsewhere: in a server, at the top level, in a value, in inputs', () => {
    assert.deepStrictEqual(at('{\n  "servers": {\n    "a": { | }\n  }\n}', true).items, []);
    assert.deepStrictEqual(at('{\n  |\n}', true).items, []);
    assert.deepStrictEqual(at('{\n  "servers": { "a": { "command": "|" } }\n}').items, []);
    assert.deepStrictEqual(at('{\n  "servers": { "a": | }\n}', true).items, []);
    assert.deepStrictEqual(at('{ "inputs": [ { "|" } ] }', true).items, []);
  });
});
