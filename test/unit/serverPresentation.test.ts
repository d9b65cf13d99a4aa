import * as assert from 'assert';
import type { ConfigScope, RawServer } from '../../src/core/config/serverDefinition';
import { RESTRICTED_MODE_REASON } from '../../src/core/host/serverManager';
import { emptyFeatures, type ServerInfo, type Tool } from '../../src/core/host/serverInfo';
import { escapeMarkdown, inlineCode } from '../../src/core/presentation/serverText';
import {
  capabilityList,
  describeState,
  featureCounts,
  groupByScope,
  INSTRUCTIONS_MAX_CHARS,
  isSlowStart,
  nextSlowStart,
  promptTooltip,
  redactUrl,
  serverContextValue,
  serverIcon,
  serverRowDescription as rowWithSize,
  serversByScope,
  serverTooltip,
  SLOW_START_MS,
  stateDisplay,
  stateExplanation,
  slowStartSummary,
  statusSummary,
  templateDescription,
  toolLabel,
  toolTooltip,
} from '../../src/core/presentation/serverPresentation';
import { SlowStartAlarm } from '../../src/core/presentation/slowStartAlarm';

/** What the Servers view shows beside a server's name. */
const serverRowDescription = (info: ServerInfo): string => stateDisplay(info).description;

const folderA: ConfigScope = { kind: 'workspace', key: 'file:///a', label: 'a', folderPath: '/a', configPath: '/a/.vscode/mcp.json' };
const folderB: ConfigScope = { kind: 'workspace', key: 'file:///b', label: 'b', folderPath: '/b', configPath: '/b/.vscode/mcp.json' };
const user: ConfigScope = { kind: 'user', key: 'user', label: 'user profile', configPath: '/home/u/mcp.json' };

const stdio: RawServer = { type: 'stdio', command: 'node', args: ['server.js', '--port', '3000'], env: {} };

function server(overrides: Partial<ServerInfo> = {}): ServerInfo {
  return {
    id: `${(overrides.scope ?? folderA).key}::${overrides.name ?? 'demo'}`,
    name: 'demo',
    scope: folderA,
    definition: stdio,
    state: { kind: 'stopped' },
    features: emptyFeatures(),
    crashCount: 0,
    ...overrides,
  };
}

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: { type: 'object' }, ...extra });

const running = (tools: number, extra: Partial<ServerInfo> = {}): ServerInfo =>
  server({
    state: { kind: 'running' },
    features: { ...emptyFeatures(), tools: Array.from({ length: tools }, (_, i) => tool(`t${i}`)) },
    ...extra,
  });

const untrusted = (): ServerInfo => {
  const reason = 'Not trusted: start it to be asked again.';
  return server({ state: { kind: 'blocked', reason: 'untrusted', message: reason } });
};

const restricted = (): ServerInfo =>
  server({ state: { kind: 'blocked', reason: 'restricted', message: RESTRICTED_MODE_REASON } });

describe('serverPresentation', () => {
  describe('describeState', () => {
    it('describes a running server with its tool count', () => {
      assert.strictEqual(describeState(running(17)), 'running · 17 tools');
      assert.strictEqual(describeState(running(1)), 'running · 1 tool');
      assert.strictEqual(describeState(running(0)), 'running · 0 tools');
    });

    it('describes starting, stopped and error', () => {
      assert.strictEqual(describeState(server({ state: { kind: 'starting', since: 0 } })), 'starting…');
      assert.strictEqual(describeState(server()), 'stopped');
      assert.strictEqual(describeState(server({ state: { kind: 'error', message: 'spawn ENOENT' } })), 'error');
    });

    it('describes servers blocked by trust and by Restricted Mode', () => {
      assert.strictEqual(describeState(untrusted()), 'not trusted');
      const notYet = 'Not trusted yet: start it to be asked again.';
      assert.strictEqual(describeState(server({ state: { kind: 'blocked', reason: 'untrusted', message: notYet } })), 'not trusted');
      assert.strictEqual(describeState(restricted()), 'restricted mode');
    });

    it('keeps "stopped" for other reasons (a cancelled input), which the tooltip explains', () => {
      const reason = 'Input "api-key" was cancelled';
      const info = server({ state: { kind: 'blocked', reason: 'input', message: reason } });
      assert.strictEqual(describeState(info), 'stopped');
      assert.deepStrictEqual(stateExplanation(info), { label: reason, tooltip: reason, icon: { id: 'info' }, action: 'showOutput' });
      assert.match(serverTooltip(info), /Input "api\\-key" was cancelled/);
    });
  });

  describe('the row with its size (issue 41: cut at the default sidebar width)', () => {
    it('keeps a running row short: its state and size, the tool count left to its Tools group and tooltip', () => {
      assert.strictEqual(rowWithSize(running(19), '≈3.2k tokens'), 'running · 3.2k tokens');
      assert.strictEqual(rowWithSize(running(19), '3.2k tokens'), 'running · 3.2k tokens');
      assert.strictEqual(rowWithSize(running(19), undefined), 'running · 19 tools');
      assert.strictEqual(describeState(running(19)), 'running · 19 tools', 'the tooltip still counts the tools');
    });

    it('keeps the word a user needs: dormant, and a confined server\'s denials', () => {
      const dormant = server({ state: { kind: 'dormant' }, features: { ...emptyFeatures(), tools: [tool('a'), tool('b')] } });
      assert.strictEqual(rowWithSize(dormant, '≈120 tokens'), 'dormant · 120 tokens');
      const denied = running(3, { confined: true, sandboxDenials: [{ kind: 'file', target: '/etc/x' } as never] });
      assert.strictEqual(rowWithSize(denied, '≈90 tokens'), 'running · 1 denied · 90 tokens');
    });

    it('says in the tooltip what the row leaves out: the tool count, and whether the size is an estimate', () => {
      assert.match(serverTooltip(running(19), '≈3.2k tokens'), /· running · 19 tools {2}\n[\s\S]*\*\*In a model request:\*\* ≈3\\\.2k tokens \(estimated until the chat model counts them\)/);
      assert.match(serverTooltip(running(19), '3.2k tokens'), /\*\*In a model request:\*\* 3\\\.2k tokens {2}\n/);
      assert.doesNotMatch(serverTooltip(running(19)), /In a model request/);
    });
  });

  describe('icons and context values', () => {
    it('gives every state its codicon and color', () => {
      assert.deepStrictEqual(serverIcon(running(1)), { id: 'pass-filled', color: 'testing.iconPassed' });
      assert.deepStrictEqual(serverIcon(server({ state: { kind: 'starting', since: 1000 } }), 1000 + SLOW_START_MS), { id: 'loading~spin' });
      assert.deepStrictEqual(serverIcon(server()), { id: 'circle-outline' });
      assert.deepStrictEqual(serverIcon(untrusted()), { id: 'debug-pause' });
      assert.deepStrictEqual(serverIcon(restricted()), { id: 'debug-pause' });
      assert.deepStrictEqual(serverIcon(server({ state: { kind: 'error', message: 'x' } })), { id: 'error', color: 'testing.iconFailed' });
    });

    it('exposes the state kind to menus', () => {
      assert.strictEqual(serverContextValue(running(1)), 'mcpServer.running');
      // Waiting for trust, its action is Trust…, not Start.
      assert.strictEqual(serverContextValue(untrusted()), 'mcpServer.untrusted');
      assert.strictEqual(serverContextValue(restricted()), 'mcpServer.blocked');
      assert.strictEqual(serverContextValue(server({ state: { kind: 'error', message: 'x' } })), 'mcpServer.error');
    });
  });

  describe('stateExplanation', () => {
    it('explains errors and blocks with a way to act, and nothing while running or starting', () => {
      const error = stateExplanation(server({ state: { kind: 'error', message: 'spawn ENOENT\nat line 2' } }));
      assert.strictEqual(error?.label, 'spawn ENOENT');
      assert.strictEqual(error?.action, 'showOutput');
      // Not trusted: what to do, and a click that does it (shows what it runs and asks); the reason in the tooltip.
      const notTrusted = stateExplanation(untrusted());
      assert.strictEqual(notTrusted?.action, 'trust');
      assert.strictEqual(notTrusted?.label, 'Click to see what it runs and decide whether to trust it');
      assert.match(notTrusted?.tooltip ?? '', /^Not trusted: start it to be asked again\./);
      assert.strictEqual(stateExplanation(restricted())?.action, 'manageWorkspaceTrust');
      assert.strictEqual(stateExplanation(server())?.label, 'Not running');
      assert.strictEqual(stateExplanation(server())?.action, undefined);
      assert.strictEqual(stateExplanation(running(2)), undefined);
      assert.strictEqual(stateExplanation(server({ state: { kind: 'starting', since: 0 } })), undefined);
    });
  });

  describe('serverTooltip', () => {
    it('never shows env values, header values or URL credentials', () => {
      const secrets = ['sk-live-123', 'Bearer abc.def', 'hunter2', 'querytoken42', 'envfile-secret'];
      const local = server({
        definition: { type: 'stdio', command: 'npx', args: ['-y', 'srv'], env: { API_KEY: 'sk-live-123', DROP: null }, envFile: '/a/.env' },
      });
      const remote = server({
        definition: {
          type: 'http',
          url: 'https://me:hunter2@example.com/mcp?api_key=querytoken42&v=1',
          headers: { Authorization: 'Bearer abc.def', 'X-Key': '${input:key}' },
        },
      });
      for (const info of [local, remote]) {
        const tip = serverTooltip(info);
        for (const s of secrets) assert.ok(!tip.includes(s), `tooltip leaks ${s}:\n${tip}`);
      }
      const localTip = serverTooltip(local);
      assert.match(localTip, /`npx -y srv`/);
      assert.match(localTip, /`API_KEY`, `DROP` \(values hidden\)/);
      const remoteTip = serverTooltip(remote);
      assert.match(remoteTip, /`https:\/\/example\.com\/mcp\?api_key=…&v=…`/);
      assert.match(remoteTip, /`Authorization`, `X-Key` \(values hidden\)/);
      assert.ok(!remoteTip.includes('${input:key}'));
    });

    it('shows state, server, protocol, capabilities, pid, counts and truncated instructions', () => {
      const info = running(3, {
        serverInfo: { name: 'demo-server', version: '1.2.3' },
        protocolVersion: '2025-06-18',
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: false }, logging: {} },
        pid: 4242,
        instructions: 'x'.repeat(INSTRUCTIONS_MAX_CHARS * 2),
      });
      info.features.prompts = [{ name: 'p' }];
      const tip = serverTooltip(info);
      assert.match(tip, /^\*\*demo\*\* · running · 3 tools/);
      assert.match(tip, /demo\\-server 1\\\.2\\\.3/);
      assert.match(tip, /2025\\-06\\-18/);
      assert.match(tip, /tools \\\(listChanged\\\), resources \\\(subscribe\\\), logging/);
      assert.match(tip, /\*\*PID:\*\* 4242/);
      assert.match(tip, /3 tools · 1 prompt/);
      assert.match(tip, /x…$/);
      assert.ok(tip.length < INSTRUCTIONS_MAX_CHARS + 1000);
    });

    it('shows the error message and the blocked reason', () => {
      assert.match(serverTooltip(server({ state: { kind: 'error', message: 'exited with code 1' } })), /\*\*Error:\*\* exited with code 1/);
      assert.match(serverTooltip(untrusted()), /\*\*Not started:\*\* Not trusted\\: start it/);
    });

    it('escapes what servers say, so they cannot inject links or images', () => {
      const info = running(0, { instructions: '![x](https://tracker.example/p.png) <img src=x> [click](command:evil)' });
      const tip = serverTooltip(info);
      const instructions = tip.slice(tip.indexOf('**Instructions:**'));
      // Every character that could open a link, an image or HTML is backslash-escaped.
      assert.ok(!/(^|[^\\])[![\]()<>]/.test(instructions.replace('**Instructions:**', '')), instructions);
      assert.ok(instructions.includes('https\\://'), 'bare URLs do not autolink');
    });
  });

  describe('helpers', () => {
    it('counts only the kinds there are', () => {
      assert.strictEqual(featureCounts(emptyFeatures()), '');
      assert.strictEqual(
        featureCounts({ tools: [tool('a'), tool('b')], prompts: [], resources: [{ uri: 'u', name: 'n' }], resourceTemplates: [{ uriTemplate: 'u/{x}', name: 't' }] }),
        '2 tools · 1 resource · 1 resource template',
      );
    });

    it('lists capabilities with their enabled flags', () => {
      assert.deepStrictEqual(capabilityList(undefined), []);
      assert.deepStrictEqual(capabilityList({ prompts: {}, tools: { listChanged: true } }), ['prompts', 'tools (listChanged)']);
    });

    it('redacts URLs, parsable or not', () => {
      assert.strictEqual(redactUrl('https://a:b@h.example/x?k=v#frag'), 'https://h.example/x?k=…');
      assert.strictEqual(redactUrl('${input:base}/mcp?token=abc'), '${input:base}/mcp');
    });

    it('quotes code spans holding backticks, and escapes Markdown', () => {
      assert.strictEqual(inlineCode('a`b'), '``a`b``');
      assert.strictEqual(inlineCode('`x'), '`` `x ``');
      assert.strictEqual(escapeMarkdown('*a* [b](c)\nd'), '\\*a\\* \\[b\\]\\(c\\)  \nd');
    });

    it('labels tools by title, then annotation title, then name; tooltips mark required parameters and hints', () => {
      assert.strictEqual(toolLabel(tool('n', { title: 'T', annotations: { title: 'A' } })), 'T');
      assert.strictEqual(toolLabel(tool('n', { annotations: { title: 'A' } })), 'A');
      assert.strictEqual(toolLabel(tool('n')), 'n');
      const tip = toolTooltip(
        tool('read', {
          description: 'Reads a file.\nSecond line.',
          inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Where' }, n: { type: 'number' } }, required: ['path'] },
          annotations: { readOnlyHint: true, destructiveHint: false },
        }),
      );
      assert.match(tip, /- `path` string \*\(required\)\* — Where/);
      assert.match(tip, /- `n` number$/m);
      assert.match(tip, /readOnlyHint\\: true, destructiveHint\\: false/);
      assert.match(tip, /Reads a file\\\. {2}\nSecond line\\\./);
    });

    it('marks required prompt arguments and resource templates', () => {
      const tip = promptTooltip({ name: 'review', arguments: [{ name: 'code', required: true }, { name: 'style' }] });
      assert.match(tip, /- `code` \*\(required\)\*/);
      assert.match(tip, /- `style`$/m);
      assert.strictEqual(templateDescription({ uriTemplate: 'f/{p}', name: 'f', mimeType: 'text/plain' }), 'template · text/plain');
      assert.strictEqual(templateDescription({ uriTemplate: 'f/{p}', name: 'f' }), 'template');
    });
  });

  describe('tree layout', () => {
    it('groups by scope with several folders, or user servers next to workspace ones', () => {
      assert.strictEqual(groupByScope([server()], 1), false);
      assert.strictEqual(groupByScope([server()], 2), true);
      assert.strictEqual(groupByScope([server({ scope: user })], 1), false);
      assert.strictEqual(groupByScope([server({ scope: user }), server()], 1), true);
    });

    it('orders workspace scopes first, the user scope last', () => {
      const groups = serversByScope([
        server({ scope: user, name: 'u' }),
        server({ scope: folderB, name: 'b1' }),
        server({ scope: folderA, name: 'a' }),
        server({ scope: folderB, name: 'b2' }),
      ]);
      assert.deepStrictEqual(
        groups.map((g) => [g.scope.key, g.servers.map((s) => s.name)]),
        [
          ['file:///b', ['b1', 'b2']],
          ['file:///a', ['a']],
          ['user', ['u']],
        ],
      );
    });
  });

  describe('slow starts', () => {
    const starting = (since: number) => server({ state: { kind: 'starting', since } });

    it('shows a start still until it takes SLOW_START_MS, then spinning', () => {
      assert.deepStrictEqual(serverIcon(starting(1000), 1000), { id: 'watch' });
      assert.deepStrictEqual(serverIcon(starting(1000), 1000 + SLOW_START_MS - 1), { id: 'watch' });
      assert.deepStrictEqual(serverIcon(starting(1000), 1000 + SLOW_START_MS), { id: 'loading~spin' });
      assert.strictEqual(isSlowStart(starting(1000), 1000 + SLOW_START_MS), true);
      assert.strictEqual(isSlowStart(running(1), 1e12), false);
    });

    it('knows when the next start becomes slow, and that none will when none is starting or all are slow', () => {
      assert.strictEqual(nextSlowStart([starting(500), running(1), starting(100)], 1000), 100 + SLOW_START_MS);
      assert.strictEqual(nextSlowStart([starting(0), starting(400)], SLOW_START_MS + 1), 400 + SLOW_START_MS);
      assert.strictEqual(nextSlowStart([starting(0)], SLOW_START_MS), undefined);
      assert.strictEqual(nextSlowStart([running(1), server()], 0), undefined);
    });

    it('rings once when a start becomes slow, and not for one that is already slow', async () => {
      let rings = 0;
      const alarm = new SlowStartAlarm(() => rings++);
      try {
        const now = Date.now();
        alarm.set([starting(now - SLOW_START_MS + 30), starting(now - SLOW_START_MS - 5)], now);
        await new Promise((r) => setTimeout(r, 15));
        assert.strictEqual(rings, 0, 'not yet');
        await new Promise((r) => setTimeout(r, 60));
        assert.strictEqual(rings, 1);
        alarm.set([starting(Date.now() - SLOW_START_MS - 5)]);
        alarm.set([starting(Date.now() - SLOW_START_MS + 20)]);
        alarm.set([running(1)]);
        await new Promise((r) => setTimeout(r, 60));
        assert.strictEqual(rings, 1, 'set again with nothing to wait for: cleared');
      } finally {
        alarm.dispose();
      }
    });
  });

  describe('slowStartSummary', () => {
    it('names the slow server and says a click cancels; several are counted', () => {
      const one = slowStartSummary([server({ name: 'everything', state: { kind: 'starting', since: 0 } })]);
      assert.strictEqual(one.text, 'Starting everything…');
      assert.match(one.tooltip, /^everything \(a\): still starting .* Click to cancel\.$/);
      assert.strictEqual(slowStartSummary([server({ name: 'a' }), server({ name: 'b' })]).text, 'Starting 2 MCP servers…');
    });
  });

  describe('statusSummary', () => {
    it('hides without servers', () => {
      assert.strictEqual(statusSummary([]).text, undefined);
    });

    it('counts running servers, flags errors and lists each state', () => {
      const summary = statusSummary([
        running(2, { name: 'one' }),
        server({ name: 'two', state: { kind: 'error', message: 'boom\nstack' } }),
        server({ name: 'three', scope: user }),
      ]);
      assert.strictEqual(summary.text, '$(server) MCP 1/3');
      assert.strictEqual(summary.anyError, true);
      assert.strictEqual(summary.accessibleLabel, 'MCP: 1 of 3 servers running');
      assert.deepStrictEqual(summary.tooltip.split('\n'), [
        'MCP servers',
        'one (a): running · 2 tools',
        'two (a): error: boom',
        'three (User): stopped',
      ]);
      assert.strictEqual(statusSummary([running(1)]).anyError, false);
    });
  });
});

describe('server rows that fit a narrow view', () => {
  // About 24 characters fit beside a short name in the default sidebar width; "running · 19 tools · con…" was cut.
  const ROW_MAX = 24;
  const tools = (n: number): Tool[] => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' as const } }));
  const running = (extra: Partial<ServerInfo>) => server({ state: { kind: 'running' }, features: { ...emptyFeatures(), tools: tools(19) }, ...extra });

  it('keeps the row short and puts the rest (confinement, denials, the account) in the tooltip', () => {
    const cases: [Partial<ServerInfo>, string, string][] = [
      [{}, 'running · 19 tools', 'running · 19 tools'],
      [{ confined: true }, 'running · 19 tools', 'running · 19 tools · confined'],
      [{ confined: true, sandboxDenials: [{ kind: 'write', path: '/x' }, { kind: 'write', path: '/y' }] }, 'running · 2 denied', 'running · 19 tools · confined, 2 denied'],
      [{ auth: { kind: 'signedIn', account: 'alice@example.com', authorizationServer: 'https://a' } as ServerInfo['auth'] }, 'running · 19 tools', 'running · 19 tools · signed in as alice@example.com'],
    ];
    for (const [extra, row, whole] of cases) {
      const info = running(extra);
      const shown = serverRowDescription(info);
      assert.strictEqual(shown, row);
      assert.ok(shown.length <= ROW_MAX, shown);
      assert.strictEqual(describeState(info), whole);
      assert.ok(serverTooltip(info).startsWith(`**demo** · ${escapeMarkdown(whole)}`));
    }
    assert.strictEqual(serverIcon(running({ confined: true })).id, 'lock');
  });
});
