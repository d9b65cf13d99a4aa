// The MCP Registry client, the server.json → mcp.json mapping and the JSONC-preserving writer, against a local
// registry of our own (test/fixtures/registry) serving real server.json documents over HTTP.
import * as assert from 'assert';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { McpJsonWriteError, writeServer } from '../../src/core/config/mcpJsonWriter';
import { RegistryClient, RegistryError } from '../../src/core/features/mcpRegistry/registryClient';
import type { RegistryEntry, RegistryServer } from '../../src/core/features/mcpRegistry/registryServer';
import { answerQuestions, installOptions, MappingError, planInstall } from '../../src/core/features/mcpRegistry/serverJsonMapping';
import { startFixtureRegistry, type FixtureRegistry } from './registryTestKit';
import { registryFailureRows } from '../../src/core/presentation/registryFailure';

const ok = (e: RegistryEntry): RegistryServer => {
  assert.ok(e.ok, e.ok ? '' : e.reason);
  return e.server;
};

describe('MCP registry', () => {
  let registry: FixtureRegistry;
  let client: RegistryClient;
  before(async () => {
    registry = await startFixtureRegistry();
    client = new RegistryClient(`${registry.url}/`);
  });
  after(() => registry.close());

  const latest = async (name: string) => ok(await client.latest(name));

  describe('client', () => {
    it('pages through every server, three at a time, skipping the malformed entry with its reason', async () => {
      const seen: RegistryEntry[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.search('', { cursor, limit: 3 });
        seen.push(...page.entries);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      assert.strictEqual(pages, 3);
      assert.strictEqual(seen.length, 8);
      const bad = seen.filter((e) => !e.ok);
      assert.deepStrictEqual(bad, [{ ok: false, name: 'io.github.example/broken', reason: 'Server "io.github.example/broken", packages[0] has no "identifier"' }]);
      assert.ok(registry.requests.some((r) => r.startsWith('/v0.1/servers?') && r.includes('limit=3') && r.includes('version=latest')));
      const first = seen[0];
      assert.ok(first.ok && first.isLatest === true && first.status === 'active');
    });

    it('searches by text', async () => {
      const page = await client.search('weather');
      assert.deepStrictEqual(
        page.entries.map((e) => e.ok && e.server.name),
        ['io.github.example/weather'],
      );
      assert.strictEqual(page.nextCursor, undefined);
    });

    it('looks up the latest version of one server by name, and says when there is none', async () => {
      const s = await latest('io.github.example/postgres');
      assert.strictEqual(s.version, '1.2.0');
      assert.ok(registry.requests.includes('/v0.1/servers/io.github.example%2Fpostgres/versions/latest'));
      await assert.rejects(client.latest('io.github.example/nothing'), (e: Error) => e instanceof RegistryError && /has no server "io.github.example\/nothing"/.test(e.message));
    });

    it('says in one line when the registry answers garbage, too much, too late, or not at all', async () => {
      await assert.rejects(new RegistryClient(`${registry.url}/garbage`).search('x'), /did not answer with JSON\.$/);
      await assert.rejects(new RegistryClient(`${registry.url}/huge`, { maxBytes: 64 * 1024 }).search('x'), /sent more than 64 KB; the answer was not read\.$/);
      await assert.rejects(new RegistryClient(`${registry.url}/slow`, { timeoutMs: 300 }).search('x'), /cannot be reached: no answer within 0.3 s\./);
      const gone = await startFixtureRegistry();
      await gone.close();
      await assert.rejects(new RegistryClient(gone.url).search('x'), (e: Error) => e instanceof RegistryError && e.unreachable && e.message === `The registry ${gone.url} cannot be reached: nothing accepted the connection at that address.` && /^ECONNREFUSED: /.test(e.technical ?? ''));
      await assert.rejects(new RegistryClient(`${registry.url}/nope`).search('x'), /answered 404/);
      assert.throws(() => new RegistryClient('file:///etc'), /must be http or https/);
    });

    it('says in words, not a code, that an address could not be found; the code stays in the detail for the log', async () => {
      // `.invalid` never resolves (RFC 2606): ENOTFOUND, or EAI_AGAIN where the machine has no DNS at all.
      await assert.rejects(new RegistryClient('https://registry.example.invalid').search('x'), (e: Error) => {
        assert.ok(e instanceof RegistryError && e.unreachable);
        assert.match(e.message, /^The registry https:\/\/registry\.example\.invalid cannot be reached: its address could not be (found|looked up right now)/);
        assert.doesNotMatch(e.message, /\bE[A-Z_]{3,}\b/, 'no raw error code');
        assert.match(e.technical ?? '', /^(ENOTFOUND|EAI_AGAIN): /);
        return true;
      });
    });

    it('shows an unreachable registry as a row in words, with Retry, the settings and the log', () => {
      const reason = 'its address could not be found (no network connection, a DNS problem, or a mistyped address)';
      const rows = registryFailureRows(`The registry https://r.example cannot be reached: ${reason}.`, true, reason);
      assert.deepStrictEqual(
        rows.map((r) => [r.label, r.description ?? '', r.action]),
        [
          ['$(error) Cannot reach the registry: its address could not be found', '', 'retry'],
          ['$(refresh) Retry', 'search the registry again', 'retry'],
          ['$(settings-gear) Open Settings: Registry Address', 'mcpHost.registry.url', 'registrySetting'],
          ['$(settings-gear) Open Settings: Proxy', 'http.proxy', 'proxySetting'],
          ['$(output) Show Log', 'what went wrong, in detail', 'showLog'],
        ],
      );
      assert.strictEqual(rows[0].detail, 'No network connection, a DNS problem, or a mistyped address? See below.');
      // A reason without an aside: what to check, said in the detail.
      const refused = registryFailureRows('…', true, 'nothing accepted the connection at that address');
      assert.strictEqual(refused[0].label, '$(error) Cannot reach the registry: nothing accepted the connection at that address');
      assert.strictEqual(refused[0].detail, 'Check your network connection and proxy, or the registry address below.');
      // A row shows one line of its label and of its detail: each short enough not to be cut in the pick.
      for (const r of [rows[0], refused[0]]) assert.ok(r.label.length <= 90 && r.detail!.length <= 80, `${r.label} / ${r.detail}`);
    });
  });

  describe('server.json → mcp.json', () => {
    it('npm → npx with the pinned version; the secret is a password input, defaults kept, optional values left out', async () => {
      const plan = planInstall(await latest('io.github.mcp-host-tests/everything'), 'https://registry.example');
      assert.strictEqual(plan.name, 'io.github.mcp-host-tests/everything');
      assert.deepStrictEqual(plan.entry, {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'],
        env: { EVERYTHING_API_KEY: '${input:everything-everything-api-key}', EVERYTHING_LOG_LEVEL: 'info' },
        gallery: 'https://registry.example',
        version: '2026.8.31',
      });
      assert.deepStrictEqual(plan.inputs, [{ type: 'promptString', id: 'everything-everything-api-key', description: 'API key for the everything service', password: true }]);
      assert.deepStrictEqual(plan.questions, []);
      assert.deepStrictEqual(plan.leftOut, ['EVERYTHING_PROXY']);
    });

    it('pypi → uvx; a required value with choices is a pickString question, a named argument keeps its default', async () => {
      const plan = planInstall(await latest('io.github.example/weather'), 'r');
      assert.deepStrictEqual(plan.entry, {
        type: 'stdio',
        command: 'uvx',
        args: ['mcp-weather==0.4.1', '--timeout', '30'],
        env: { WEATHER_API_KEY: '${input:weather-weather-api-key}', WEATHER_UNITS: '${input:weather-weather-units}' },
        gallery: 'r',
        version: '0.4.1',
      });
      assert.deepStrictEqual(plan.questions, ['weather-weather-units']);
      assert.deepStrictEqual(plan.inputs[1], { type: 'pickString', id: 'weather-weather-units', description: 'Units of measurement', options: ['metric', 'imperial'] });
      const answered = answerQuestions(plan, new Map([['weather-weather-units', 'metric']]));
      assert.strictEqual((answered.entry as { env: Record<string, string> }).env.WEATHER_UNITS, 'metric');
      assert.deepStrictEqual(answered.inputs.map((i) => i.id), ['weather-weather-api-key']);
      assert.deepStrictEqual(answered.questions, []);
    });

    it('oci → docker run with the tagged image, runtime arguments before it and the environment passed in', async () => {
      const plan = planInstall(await latest('io.github.example/postgres'), 'r');
      assert.deepStrictEqual(plan.entry, {
        type: 'stdio',
        command: 'docker',
        args: ['run', '-i', '--rm', '--network', 'host', '-e', 'DATABASE_URL', 'docker.io/example/postgres-mcp:1.2.0'],
        env: { DATABASE_URL: '${input:postgres-database-url}' },
        gallery: 'r',
        version: '1.2.0',
      });
      assert.deepStrictEqual(plan.questions, ['postgres-database-url']);
    });

    it('remotes → http or sse with headers; a placeholder in a header value becomes a password input', async () => {
      const plan = planInstall(await latest('com.example/remote-search'), 'r');
      assert.deepStrictEqual(plan.entry, {
        type: 'http',
        url: 'https://mcp.example.com/search/mcp',
        headers: { Authorization: 'Bearer ${input:remote-search-authorization-token}', 'X-Team': '${input:remote-search-x-team}' },
        gallery: 'r',
        version: '2.0.0',
      });
      assert.deepStrictEqual(
        plan.inputs.map((i) => [i.id, i.type === 'promptString' && i.password]),
        [
          ['remote-search-authorization-token', true],
          ['remote-search-x-team', false],
        ],
      );
      assert.deepStrictEqual(planInstall(await latest('com.example/legacy-events'), 'r').entry, { type: 'sse', url: 'https://events.example.com/sse', gallery: 'r', version: '0.9.0' });
    });

    it('refuses what it cannot write: an mcpb bundle, and registry text that would become a ${…} variable', async () => {
      const bundle = await latest('io.github.example/bundle');
      assert.deepStrictEqual(installOptions(bundle).map((o) => o.unsupported), ['mcpb packages are not supported (npm, pypi and oci are)']);
      assert.throws(() => planInstall(bundle, 'r'), (e: Error) => e instanceof MappingError && /mcpb packages are not supported/.test(e.message));
      const sneaky = await latest('io.github.example/sneaky');
      assert.throws(() => planInstall(sneaky, 'r'), /the value of X-Key contains "\$\{", which mcp\.json would read as a variable/);
    });
  });

  describe('writing mcp.json', () => {
    const withComments = `{
  // Our team's servers.
  "servers": {
    "local": { "command": "node", "args": ["server.js"] } // keep me
  },
  /* inputs below */
  "inputs": [
    { "type": "promptString", "id": "other", "description": "Other" }
  ]
}
`;

    it('adds the server and its inputs, keeping comments and the other entries; the result parses cleanly', async () => {
      const plan = planInstall(await latest('com.example/remote-search'), 'https://registry.example');
      const { text, replaced } = writeServer(withComments, plan);
      assert.strictEqual(replaced, false);
      for (const kept of ["// Our team's servers.", '"local": { "command": "node", "args": ["server.js"] }, // keep me\n', '/* inputs below */', '{ "type": "promptString", "id": "other", "description": "Other" },\n']) {
        assert.ok(text.includes(kept), kept);
      }
      assert.ok(text.includes('\n    "com.example/remote-search": {\n      "type": "http",\n'), text);
      const parsed = parseMcpConfig(text);
      assert.deepStrictEqual(parsed.diagnostics, []);
      assert.deepStrictEqual(parsed.servers.map((s) => s.name), ['local', 'com.example/remote-search']);
      assert.deepStrictEqual(parsed.inputs.map((i) => i.id), ['other', 'remote-search-authorization-token', 'remote-search-x-team']);
    });

    it('creates a new file, replaces an existing entry in place, shares an equal input and renames a different one', async () => {
      const server = await latest('io.github.mcp-host-tests/everything');
      const first = writeServer('', planInstall(server, 'r'));
      assert.ok(first.text.startsWith('{\n  "servers": {\n    "io.github.mcp-host-tests/everything": {\n'), first.text);
      assert.deepStrictEqual(parseMcpConfig(first.text).diagnostics, []);
      const again = writeServer(first.text, planInstall(server, 'r'));
      assert.strictEqual(again.replaced, true);
      assert.strictEqual(again.text, first.text);

      const clash = '{ "servers": {}, "inputs": [ { "type": "promptString", "id": "everything-everything-api-key", "description": "not a secret" } ] }';
      const renamed = writeServer(clash, planInstall(server, 'r'));
      const parsed = parseMcpConfig(renamed.text);
      assert.deepStrictEqual(parsed.diagnostics, []);
      assert.deepStrictEqual(parsed.inputs.map((i) => i.id), ['everything-everything-api-key', 'everything-everything-api-key-2']);
      const env = (parsed.servers[0].server as { env: Record<string, string> }).env;
      assert.strictEqual(env.EVERYTHING_API_KEY, '${input:everything-everything-api-key-2}');
    });

    it('refuses to edit a file with syntax errors', async () => {
      const plan = planInstall(await latest('com.example/legacy-events'), 'r');
      assert.throws(() => writeServer('{ "servers": { ', plan), (e: Error) => e instanceof McpJsonWriteError && /syntax errors/.test(e.message));
      assert.throws(() => writeServer('{ "servers": [] }', plan), /"servers" is not an object/);
    });

    it('adds "servers" and "inputs" to a file without them, and keeps a trailing comma and a tab indent', async () => {
      const plan = planInstall(await latest('com.example/remote-search'), 'r');
      const tabs = '{\n\t"$schema": "x",\n}\n';
      const { text } = writeServer(tabs, plan);
      assert.ok(text.startsWith('{\n\t"$schema": "x",\n\t"servers": {\n\t\t"com.example/remote-search": {\n'), text);
      const parsed = parseMcpConfig(text);
      assert.deepStrictEqual(parsed.diagnostics, []);
      assert.strictEqual(parsed.inputs.length, 2);
    });
  });
});
