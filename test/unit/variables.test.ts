import * as assert from 'assert';
import * as path from 'path';
import { hashOf } from '../../src/core/config/definitionHash';
import type { InputDefinition, RawRemoteServer, RawStdioServer } from '../../src/core/config/serverDefinition';
import { InputCancelledError, referencedInputIds, resolveServer, VariableError, type VariableContext } from '../../src/core/config/variables';

const folder = path.resolve('/work/projects/my-app');
const home = path.resolve('/home/ada');

function context(answers: Record<string, string | undefined> = {}, overrides: Partial<VariableContext> = {}): VariableContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    folderPath: folder,
    userHome: home,
    env: { API_HOST: 'api.example.com', TOKEN: 'env-token' },
    pathSeparator: '/',
    asked,
    resolveInput: async (input) => {
      asked.push(input.id);
      return answers[input.id];
    },
    ...overrides,
  };
}

const stdio = (s: Partial<RawStdioServer>): RawStdioServer => ({ type: 'stdio', command: 'node', args: [], env: {}, ...s });
const remote = (s: Partial<RawRemoteServer>): RawRemoteServer => ({ type: 'http', url: 'https://example.com/mcp', headers: {}, ...s });
const prompt = (id: string, password = false): InputDefinition => ({ type: 'promptString', id, description: id, password });

describe('resolveServer', () => {
  it('substitutes every supported variable', async () => {
    const raw = stdio({
      command: '${userHome}${/}bin${pathSeparator}tool',
      args: ['${workspaceFolder}', '${workspaceFolderBasename}', 'host=${env:API_HOST}', 'missing=[${env:NOT_SET}]', '${input:level}'],
    });
    const ctx = context({ level: 'debug' });
    const { resolved } = await resolveServer(raw, [{ type: 'pickString', id: 'level', description: 'Level', options: ['debug', 'info'] }], ctx);
    assert.deepStrictEqual(resolved, {
      type: 'stdio',
      command: `${home}/bin/tool`,
      args: [folder, 'my-app', 'host=api.example.com', 'missing=[]', 'debug'],
      env: {},
    });
  });

  it('substitutes in env values, envFile, cwd, url and header values, keeping null env values', async () => {
    const inputs = [prompt('key')];
    const s = await resolveServer(
      stdio({ env: { KEY: '${input:key}', DROP: null, HOST: '${env:API_HOST}' }, envFile: '${workspaceFolder}/.env', cwd: '${userHome}/work' }),
      inputs,
      context({ key: 'k1' }),
    );
    assert.deepStrictEqual(s.resolved, {
      type: 'stdio',
      command: 'node',
      args: [],
      env: { KEY: 'k1', DROP: null, HOST: 'api.example.com' },
      envFile: path.join(folder, '.env'),
      cwd: path.join(home, 'work'),
    });
    const r = await resolveServer(remote({ url: 'https://${env:API_HOST}/${input:key}', headers: { 'X-Key': '${input:key}' } }), inputs, context({ key: 'k2' }));
    assert.deepStrictEqual(r.resolved, { type: 'http', url: 'https://api.example.com/k2', headers: { 'X-Key': 'k2' } });
  });

  it('resolves a relative cwd and envFile against the workspace folder', async () => {
    const { resolved } = await resolveServer(stdio({ cwd: 'packages/server', envFile: '.env.local' }), [], context());
    assert.deepStrictEqual(resolved.type === 'stdio' && [resolved.cwd, resolved.envFile], [path.join(folder, 'packages/server'), path.join(folder, '.env.local')]);
    const abs = path.resolve('/opt/server');
    const again = await resolveServer(stdio({ cwd: abs }), [], context());
    assert.strictEqual(again.resolved.type === 'stdio' && again.resolved.cwd, abs);
  });

  it('asks each input once, in order of first use, however often it is referenced', async () => {
    const raw = stdio({ command: '${input:b}', args: ['${input:a}', '${input:b}-${input:b}', '${input:a}'], env: { X: '${input:a}' } });
    const ctx = context({ a: 'A', b: 'B' });
    const { resolved } = await resolveServer(raw, [prompt('a'), prompt('b')], ctx);
    assert.deepStrictEqual(ctx.asked, ['b', 'a']);
    assert.deepStrictEqual(resolved.type === 'stdio' && [resolved.command, ...resolved.args, resolved.env.X], ['B', 'A', 'B-B', 'A', 'A']);
  });

  it('does not ask inputs the server does not use', async () => {
    const ctx = context({ used: 'x' });
    await resolveServer(stdio({ args: ['${input:used}'] }), [prompt('unused'), prompt('used')], ctx);
    assert.deepStrictEqual(ctx.asked, ['used']);
  });

  it('throws InputCancelledError naming the cancelled input, and asks nothing after it', async () => {
    const ctx = context({ first: undefined, second: 'x' });
    await assert.rejects(resolveServer(stdio({ args: ['${input:first}', '${input:second}'] }), [prompt('first'), prompt('second')], ctx), (e: unknown) => {
      assert.ok(e instanceof InputCancelledError);
      assert.strictEqual(e.inputId, 'first');
      assert.match(e.message, /first/);
      return true;
    });
    assert.deepStrictEqual(ctx.asked, ['first']);
  });

  it('rejects ${workspaceFolder} and ${workspaceFolderBasename} in the user scope before asking anything', async () => {
    for (const variable of ['${workspaceFolder}', '${workspaceFolderBasename}']) {
      const ctx = context({ a: 'x' }, { folderPath: undefined });
      await assert.rejects(resolveServer(stdio({ args: ['${input:a}', variable] }), [prompt('a')], ctx), VariableError);
      assert.deepStrictEqual(ctx.asked, [], variable);
    }
  });

  it('resolves a relative cwd against the home folder in the user scope', async () => {
    const { resolved } = await resolveServer(stdio({ cwd: 'tools' }), [], context({}, { folderPath: undefined }));
    assert.strictEqual(resolved.type === 'stdio' && resolved.cwd, path.join(home, 'tools'));
  });

  it('throws VariableError for unknown variables and undeclared inputs', async () => {
    for (const arg of ['${foo}', '${config:editor.tabSize}', '${env:}', '${input:nope}', '${workspaceFolder:other}']) {
      await assert.rejects(resolveServer(stdio({ args: [arg] }), [], context()), (e: unknown) => {
        assert.ok(e instanceof VariableError, arg);
        assert.ok(e.message.includes(arg), e.message);
        return true;
      });
    }
  });

  it('leaves text that only looks like a variable alone', async () => {
    const { resolved } = await resolveServer(stdio({ args: ['$HOME', '${', 'a}b', '$(x)'] }), [], context());
    assert.deepStrictEqual(resolved.type === 'stdio' && resolved.args, ['$HOME', '${', 'a}b', '$(x)']);
  });

  it('returns password input values as secrets, not other inputs', async () => {
    const { secrets } = await resolveServer(stdio({ args: ['${input:pw}', '${input:plain}'] }), [prompt('pw', true), prompt('plain')], context({ pw: 's3cret', plain: 'visible' }));
    assert.deepStrictEqual(secrets, ['s3cret']);
  });

  it('returns every resolved header value as a secret, and the token of an auth scheme', async () => {
    const { secrets } = await resolveServer(
      remote({ headers: { Authorization: 'Bearer ${env:TOKEN}', 'X-Api-Key': 'literal-key', 'X-Empty': '' } }),
      [],
      context(),
    );
    assert.deepStrictEqual(secrets.sort(), ['Bearer env-token', 'env-token', 'literal-key'].sort());
  });

  it('never reports an empty secret', async () => {
    const { secrets } = await resolveServer(stdio({ args: ['${input:pw}'] }), [prompt('pw', true)], context({ pw: '' }));
    assert.deepStrictEqual(secrets, []);
  });
});

describe('referencedInputIds', () => {
  it('lists each input id once, in order of appearance, from every string field', () => {
    assert.deepStrictEqual(
      referencedInputIds(stdio({ command: '${input:c}', args: ['${input:a}${input:c}'], env: { X: '${input:e}', Y: null }, envFile: '${input:f}', cwd: '${input:a}' })),
      ['c', 'a', 'e', 'f'],
    );
    assert.deepStrictEqual(referencedInputIds(remote({ url: 'https://${input:host}', headers: { A: '${input:tok}', B: '${env:X}' } })), ['host', 'tok']);
    assert.deepStrictEqual(referencedInputIds(stdio({})), []);
  });
});

describe('hashOf', () => {
  it('does not depend on key order, at any depth', () => {
    const a = { type: 'stdio', command: 'node', args: ['x'], env: { A: '1', B: null, nested: { y: 2, x: 1 } } };
    const b = { env: { nested: { x: 1, y: 2 }, B: null, A: '1' }, args: ['x'], command: 'node', type: 'stdio' };
    assert.strictEqual(hashOf(a), hashOf(b));
    assert.match(hashOf(a), /^[0-9a-f]{64}$/);
  });

  it('changes with any value, and with array order', () => {
    const base = { command: 'node', args: ['a', 'b'] };
    assert.notStrictEqual(hashOf(base), hashOf({ command: 'node', args: ['b', 'a'] }));
    assert.notStrictEqual(hashOf(base), hashOf({ command: 'nodejs', args: ['a', 'b'] }));
    assert.notStrictEqual(hashOf({ env: { A: null } }), hashOf({ env: { A: 'null' } }));
  });

  it('ignores absent optional fields like JSON does', () => {
    assert.strictEqual(hashOf({ command: 'node', cwd: undefined }), hashOf({ command: 'node' }));
  });
});

describe('resolveServer in an mcpServers file (.mcp.json): ${VAR} and ${VAR:-default}, as Claude Code expands them', () => {
  const mcpServers = (env: Record<string, string | undefined>, more: Partial<VariableContext> = {}) => context({}, { env, dialect: 'mcpServers', ...more });

  it('takes ${VAR} from the environment, and ${VAR:-default} when it is unset or empty; VS Code names still work', async () => {
    const raw = stdio({ command: '${TOOL_HOME}/bin/tool', args: ['${REGION:-eu}', '${MISSING:-}', '${EMPTY:-fallback}', '${env:TOKEN}', '${workspaceFolder}'] });
    const { resolved } = await resolveServer(raw, [], mcpServers({ TOOL_HOME: '/opt/tool', EMPTY: '', TOKEN: 'env-token' }));
    assert.strictEqual(resolved.type === 'stdio' && resolved.command, '/opt/tool/bin/tool');
    assert.deepStrictEqual(resolved.type === 'stdio' && resolved.args, ['eu', '', 'fallback', 'env-token', folder]);
  });

  it('refuses an unset ${VAR} without a default, saying which, before asking anything', async () => {
    await assert.rejects(resolveServer(stdio({ args: ['${API_KEY}'] }), [], mcpServers({})), (e: Error) => e instanceof VariableError && /API_KEY is not set, and \$\{API_KEY\} gives no default/.test(e.message));
  });

  it('shows each reference as written, never its value, when resolving for the trust question', async () => {
    const { resolved } = await resolveServer(stdio({ args: ['--token=${API_KEY}', '${REGION:-eu}', '${env:TOKEN}'] }), [], mcpServers({ API_KEY: 'secret' }, { showReferences: true }));
    assert.deepStrictEqual(resolved.type === 'stdio' && resolved.args, ['--token=${API_KEY}', '${REGION:-eu}', '${env:TOKEN}']);
  });

  it('is only VS Code variables in an mcp.json: ${VAR} is not an environment variable there', async () => {
    await assert.rejects(resolveServer(stdio({ args: ['${API_KEY}'] }), [], context({}, { env: { API_KEY: 'x' } })), /Variable \$\{API_KEY\} is not supported/);
  });
});

describe('resolveServer: ${config:name}, a VS Code setting', () => {
  const settings = (values: Record<string, { value: unknown; fromWorkspace: boolean }>) => ({ setting: (name: string) => values[name] ?? { value: undefined, fromWorkspace: false } });

  it("takes the setting's value; the trust question shows the user's own as its reference, the workspace's as its value", async () => {
    const ctx = settings({ 'my.port': { value: 8080, fromWorkspace: false }, 'my.command': { value: 'node', fromWorkspace: true } });
    const raw = stdio({ command: '${config:my.command}', args: ['--port=${config:my.port}'] });
    const { resolved } = await resolveServer(raw, [], context({}, ctx));
    assert.deepStrictEqual(resolved.type === 'stdio' && [resolved.command, resolved.args], ['node', ['--port=8080']]);
    const shown = (await resolveServer(raw, [], context({}, { ...ctx, showReferences: true }))).resolved;
    assert.deepStrictEqual(shown.type === 'stdio' && [shown.command, shown.args], ['node', ['--port=${config:my.port}']]);
  });

  it('refuses a setting that is not set, not a plain value, or where there are no settings (the command line)', async () => {
    const ctx = settings({ 'my.list': { value: ['a'], fromWorkspace: false } });
    await assert.rejects(resolveServer(stdio({ args: ['${config:my.missing}'] }), [], context({}, ctx)), /the setting "my.missing" is not set/);
    await assert.rejects(resolveServer(stdio({ args: ['${config:my.list}'] }), [], context({}, ctx)), /is not a text, a number or true\/false/);
    await assert.rejects(resolveServer(stdio({ args: ['${config:my.port}'] }), [], context()), /there are no VS Code settings to read/);
  });
});
