import * as assert from 'assert';
import { consentSubject } from '../../src/core/features/consentSubject';
import { baseModelToolName, MAX_TOOL_NAME_LENGTH, type ToolEntry, toolMapParts, toolNameMap, toolNameMapOfServers } from '../../src/core/features/tools/toolNames';
import { schemaProblem, toolsNamedIn } from '../../src/core/features/tools/toolSchemas.lazy';
import { emptyFeatures, type ServerInfo, type Tool } from '../../src/core/host/serverInfo';
import { stdio, workspaceScope } from './hostTestKit';

/** What model APIs accept as a function name. */
const isValidModelToolName = (name: string): boolean => /^[a-zA-Z0-9_-]{1,64}$/.test(name);
const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object', properties: {} } });
const entry = (serverName: string, toolName: string, serverId = `id-${serverName}`): ToolEntry => ({
  serverId,
  serverName,
  consentSubject: `definition of ${serverId}`,
  tool: tool(toolName),
});

describe('tool names offered to the model', () => {
  it('names a tool <server>_<tool> when that is already valid', () => {
    assert.strictEqual(baseModelToolName('everything', 'get-sum'), 'everything_get-sum');
  });

  it('replaces characters model APIs refuse, and never gives an empty part', () => {
    assert.strictEqual(baseModelToolName('My Server (prod)', 'files/read.v2'), 'My_Server_prod_files_read_v2');
    assert.strictEqual(baseModelToolName('日本', 'ツール'), 'x_x');
    for (const n of [baseModelToolName('a b', 'c.d'), baseModelToolName('日本', 'ツール')]) assert.ok(isValidModelToolName(n), n);
  });

  it('keeps long names within 64 characters, distinct by a hash of the full names', () => {
    const long = 'x'.repeat(80);
    const a = baseModelToolName('server', `${long}a`);
    const b = baseModelToolName('server', `${long}b`);
    assert.strictEqual(a.length, MAX_TOOL_NAME_LENGTH);
    assert.notStrictEqual(a, b);
    assert.ok(isValidModelToolName(a) && isValidModelToolName(b));
    assert.ok(a.startsWith('server_xxxx'));
  });

  it('makes colliding names unique and maps every name back to its server and tool', () => {
    const map = toolNameMap([
      entry('a', 'b_c'),
      entry('a_b', 'c'),
      entry('a b', 'c'),
      entry('everything', 'echo', 'folder1::everything'),
      entry('everything', 'echo', 'folder2::everything'),
    ]);
    const names = map.tools.map((t) => t.modelName);
    assert.deepStrictEqual(names, ['a_b_c', 'a_b_c_2', 'a_b_c_3', 'everything_echo', 'everything_echo_2']);
    assert.strictEqual(new Set(names).size, names.length);
    assert.strictEqual(map.lookup('a_b_c_2')?.serverName, 'a_b');
    assert.strictEqual(map.lookup('a_b_c_2')?.tool.name, 'c');
    assert.strictEqual(map.lookup('everything_echo_2')?.serverId, 'folder2::everything');
    assert.strictEqual(map.lookup('nope'), undefined);
  });

  it('keeps collision suffixes within the length limit', () => {
    const long = 'y'.repeat(70);
    const map = toolNameMap([entry('s', long), entry('s', long, 'other')]);
    for (const t of map.tools) assert.ok(isValidModelToolName(t.modelName), t.modelName);
    assert.notStrictEqual(map.tools[0].modelName, map.tools[1].modelName);
  });

  it('offers every running server’s tools, and can leave some out while the others keep their names', () => {
    const info = (name: string, tools: string[], running = true): ServerInfo => ({
      id: `ws::${name}`,
      name,
      scope: workspaceScope(),
      definition: stdio('node', [`${name}.js`]),
      state: running ? { kind: 'running' } : { kind: 'stopped' },
      features: { ...emptyFeatures(), tools: tools.map(tool) },
      crashCount: 0,
    });
    const map = toolNameMapOfServers([info('one', ['x', 'y']), info('two', ['x']), info('off', ['z'], false)]);
    assert.deepStrictEqual(map.tools.map((t) => t.modelName), ['one_x', 'one_y', 'two_x']);
    const fewer = map.without(new Set(['one_y']));
    assert.deepStrictEqual(fewer.tools.map((t) => t.modelName), ['one_x', 'two_x']);
    assert.strictEqual(fewer.lookup('two_x')?.serverId, 'ws::two');
    assert.strictEqual(map.lookup('two_x')?.consentSubject, consentSubject(workspaceScope(), 'two', stdio('node', ['two.js'])), 'consent is about the definition');
  });

  it('keeps the consent subject of one definition object only for the same scope and name (a rename or a move asks anew)', () => {
    const definition = stdio('node', ['one.js']);
    const info = (name: string, scopeKey: string): ServerInfo => ({
      id: `${scopeKey}::${name}`,
      name,
      scope: { ...workspaceScope(), key: scopeKey },
      definition,
      state: { kind: 'running' },
      features: { ...emptyFeatures(), tools: [tool('x')] },
      crashCount: 0,
    });
    const subjectOf = (s: ServerInfo) => toolNameMapOfServers([s]).tools[0].consentSubject;
    for (const [name, key] of [['one', 'ws'], ['one', 'ws'], ['renamed', 'ws'], ['renamed', 'other']]) {
      assert.strictEqual(subjectOf(info(name, key)), consentSubject({ key }, name, definition), `${name} in ${key}`);
    }
  });

  it('tells by its parts when a map would be the same: a running server, its definition and its tools', () => {
    const tools = [tool('x')];
    const definition = stdio('node', ['one.js']);
    const info = (over: Partial<ServerInfo> = {}): ServerInfo => ({
      id: 'ws::one',
      name: 'one',
      scope: workspaceScope(),
      definition,
      state: { kind: 'running' },
      features: { ...emptyFeatures(), tools },
      crashCount: 0,
      ...over,
    });
    const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((p, i) => p === b[i]);
    const first = toolMapParts([info()]);
    assert.ok(same(first, toolMapParts([info()])), 'new snapshots of the same server and tools');
    assert.ok(!same(first, toolMapParts([info({ features: { ...emptyFeatures(), tools: [tool('x'), tool('y')] } })])), 'a new tool list');
    assert.ok(!same(first, toolMapParts([info({ definition: stdio('node', ['evil.js']) })])), 'another definition');
    assert.ok(!same(first, toolMapParts([info({ state: { kind: 'stopped' } })])), 'a stopped server');
    // The same name under another command: consent given to the first must not be found for the second.
    const swapped = toolNameMapOfServers([info({ definition: stdio('node', ['evil.js']) })]);
    assert.notStrictEqual(swapped.lookup('one_x')?.consentSubject, toolNameMapOfServers([info()]).lookup('one_x')?.consentSubject, 'another definition, another consent subject');
    assert.strictEqual(consentSubject(workspaceScope(), 'one', definition), toolNameMapOfServers([info()]).lookup('one_x')?.consentSubject, 'the definition as written, where and under which name');
  });
});

describe('tool schemas offered to the model', () => {
  it('passes object schemas through and explains the ones it cannot pass', () => {
    assert.strictEqual(schemaProblem({ type: 'object', properties: { a: { type: 'number' } }, $schema: 'x' }), undefined);
    assert.match(schemaProblem({ type: 'array' })!, /not of type "object"/);
    assert.match(schemaProblem(null)!, /not a JSON object/);
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    assert.match(schemaProblem(cyclic)!, /cannot be serialized/);
  });

  it('finds the tools a model API error names, as whole names only', () => {
    const names = ['srv_get', 'srv_get_all', 'other-tool'];
    assert.deepStrictEqual(toolsNamedIn("Invalid schema for function 'srv_get_all': bad type", names), ['srv_get_all']);
    assert.deepStrictEqual(toolsNamedIn('tools[3] srv_get and other-tool are invalid', names).sort(), ['other-tool', 'srv_get']);
    assert.deepStrictEqual(toolsNamedIn('rate limited', names), []);
  });
});
