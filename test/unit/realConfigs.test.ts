// Real configuration files, taken from public repositories (test/fixtures/real-configs, each one's source in
// SOURCES.tsv), read the way MCP Host reads each kind: every file gives the servers and problems written down for it
// in EXPECTED.json; every server it gives is planned (a launch plan, or a configuration problem in words, never an
// exception) and shown as the trust question would show it. Files of other tools are imported (MCP: Import Servers…).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { readForeignConfig, type ForeignKind } from '../../src/core/config/foreignConfigs';
import { parseMcpConfig, type ConfigFormat } from '../../src/core/config/mcpConfigParser';
import type { ParsedConfig, VariableDialect } from '../../src/core/config/serverDefinition';
import { referencedInputIds, resolveServer, VariableError } from '../../src/core/config/variables';
import { describeLaunchPlan } from '../../src/core/presentation/describeLaunchPlan';
import { describeDefinition } from '../../src/core/presentation/describeDefinition';
import { planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { repoRoot } from './helpers';

const corpus = path.join(repoRoot, 'test', 'fixtures', 'real-configs');
type Expected = { servers: string[]; problems: string[]; section?: 'absent' } | { imported: string[]; refused: string[]; error?: string };
const expected = JSON.parse(fs.readFileSync(path.join(corpus, 'EXPECTED.json'), 'utf8')) as Record<string, Expected>;
const sources = fs
  .readFileSync(path.join(corpus, 'SOURCES.tsv'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split('\t'))
  .map(([kind, file, repository, filePath]) => ({ kind, file, repository, filePath }));

/** How MCP Host reads each kind of file: a format, and where in the file its servers are. */
const READ_AS: Record<string, { format: ConfigFormat; section?: string[] }> = {
  'vscode-mcp': { format: 'vscode' },
  'dot-mcp': { format: 'mcpServers' },
  'github-mcp': { format: 'either' },
  'copilot-cli': { format: 'mcpServers' },
  'vscode-settings': { format: 'vscode', section: ['mcp'] },
  devcontainer: { format: 'vscode', section: ['customizations', 'vscode', 'mcp'] },
};
const IMPORTED_AS: Record<string, ForeignKind> = { cursor: 'cursor', 'claude-desktop': 'claudeDesktop', 'cline-roo-windsurf': 'claudeDesktop' };

function read(kind: string, text: string): ParsedConfig | undefined {
  const how = READ_AS[kind];
  if (!how.section) return parseMcpConfig(text, { format: how.format });
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root && findNodeAtLocation(root, how.section);
  return node && parseMcpConfig(text.slice(node.offset, node.offset + node.length), { format: how.format });
}

describe('real configuration files from public repositories', () => {
  it('has at least 40 files, each with its source named and its expectation written down', () => {
    assert.ok(sources.length >= 40, `${sources.length} files`);
    for (const s of sources) {
      assert.ok(fs.existsSync(path.join(corpus, s.kind, s.file)), s.file);
      assert.match(s.repository, /^[\w.-]+\/[\w.-]+$/, `${s.file}: its repository`);
      assert.ok(expected[`${s.kind}/${s.file}`], `${s.file}: its expectation`);
    }
    assert.deepStrictEqual(Object.keys(expected).length, sources.length, 'no expectation without a file');
  });

  for (const { kind, file, repository, filePath } of sources) {
    it(`${kind}: ${repository} ${filePath}`, async () => {
      const text = fs.readFileSync(path.join(corpus, kind, file), 'utf8');
      const want = expected[`${kind}/${file}`];
      if (IMPORTED_AS[kind]) {
        const result = readForeignConfig(text, { kind: IMPORTED_AS[kind], label: kind, path: file }, { parse: (t) => parseMcpConfig(t), referencedInputIds });
        assert.deepStrictEqual(
          { imported: result.candidates.filter((c) => !c.problem).map((c) => c.name), refused: result.candidates.filter((c) => c.problem).map((c) => `${c.name}: ${c.problem}`), ...(result.error ? { error: result.error } : {}) },
          want,
        );
        // What Import writes is a file MCP Host reads without a problem.
        for (const c of result.candidates.filter((c) => c.entry)) {
          const written = parseMcpConfig(JSON.stringify({ servers: { [c.name]: c.entry }, inputs: c.inputs }));
          assert.deepStrictEqual(written.diagnostics.filter((d) => d.severity === 'error'), [], `${c.name} as imported`);
        }
        return;
      }
      const parsed = read(kind, text);
      assert.deepStrictEqual(parsed ? { servers: parsed.servers.map((s) => s.name), problems: parsed.diagnostics.map((d) => `${d.severity} ${d.code}`) } : { servers: [], problems: [], section: 'absent' }, want);
      for (const { name, server } of parsed?.servers ?? []) {
        // Planned as a start would plan it: every environment variable set, every input answered.
        const env = new Proxy({ ...process.env } as Record<string, string | undefined>, { get: (target, key) => (typeof key === 'string' ? (target[key] ?? `value-of-${key}`) : undefined) });
        const dialect: VariableDialect = parsed!.dialect;
        const ctx = { folderPath: path.join(os.tmpdir(), 'real-config-folder'), userHome: os.homedir(), env, pathSeparator: path.sep, dialect, resolveInput: async () => 'answered' };
        try {
          const { resolved } = await resolveServer(server, parsed!.inputs, ctx);
          const shown = (await resolveServer(server, parsed!.inputs, { ...ctx, showReferences: true })).resolved;
          const planned = await planLaunch({ scope: { folderPath: ctx.folderPath }, raw: server, resolved, shown, hostEnv: process.env });
          if (!planned.ok) assert.ok(planned.message.length > 10, `${name}: a problem in words: ${planned.message}`);
          else if (planned.plan.kind === 'remote' && planned.plan.headersHelper) assert.ok(describeLaunchPlan(planned.plan).includes(`("headersHelper"): ${planned.plan.headersHelper.command.join(' ')}`), `${name}: the question shows the headers helper`);
        } catch (e) {
          assert.ok(e instanceof VariableError, `${name}: only a problem with a variable may stop the plan: ${String(e)}`);
        }
        const question = describeDefinition(server);
        assert.ok(question.includes(server.type === 'stdio' ? server.command : server.url), `${name}: the trust question names what runs`);
      }
    });
  }
});
