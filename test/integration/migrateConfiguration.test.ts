// "MCP: Migrate Configuration…" in a real VS Code: a folder's .vscode/mcp.json (with comments, inputs, a variable) has
// one server moved to the folder's .mcp.json and back, and VS Code's user mcp.json one to ~/.copilot/mcp-config.json,
// by the command's quick picks. What moves is checked, what cannot stays with
// its reason; both files are checked as text afterwards, and the moved server runs from its new file, its variable
// resolved as before.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { MigrationResult } from '../../src/vscode/mcpRegistry/registerRegistryCommands';
import { activateHost, answerDialogs, fixtureServer, waitFor, type TestedHost } from './testKit';

const run = (command: string) => vscode.commands.executeCommand(command);

describe('Migrating servers between VS Code\'s format and the mcpServers files', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let dir: string;
  let answers: vscode.Disposable;
  const trustAsked: { server: string; source: string }[] = [];
  const vscodeFile = () => path.join(dir, '.vscode', 'mcp.json');
  const mcpFile = () => path.join(dir, '.mcp.json');
  const basic = fixtureServer('basic-server.mjs');

  const pick = (step: string, what: string) =>
    waitFor(() => {
      const p = api.testing.registryPick();
      return p?.step === step && !p.busy && p;
    }, what);

  /** Moves the highlight down, as the arrow keys do, to the item starting with `prefix`. */
  const select = async (prefix: string) => {
    for (let i = 0; i < 20; i++) {
      const active = api.testing.registryPick()?.active;
      if (active?.startsWith(prefix)) return;
      await run('workbench.action.quickOpenSelectNext');
      await waitFor(() => api.testing.registryPick()?.active !== active, 'the highlight moved');
    }
    assert.fail(`no item ${prefix}: ${api.testing.registryPick()?.items.join('\n')}`);
  };

  /** The server `name` as configured from `file`, once it runs (started if it waits). */
  const runningFrom = async (name: string, file: string) => {
    const from = () => api.getServers().find((s) => s.name === name && s.scope.configPath === file);
    const server = await waitFor(() => from(), `${name} configured from ${file}`);
    if (from()!.state.kind !== 'running') await api.testing.startServer(server.id);
    await waitFor(() => from()?.state.kind === 'running', `${name} running from ${file}`, 30_000);
    return from()!;
  };

  const homeSeen = async (id: string) => {
    const result = (await api.testing.callTool(id, 'whoami', {})) as { content: { text: string }[] };
    return (JSON.parse(result.content[0].text) as { env: Record<string, string | null> }).env.MIGRATED_HOME;
  };

  before(async () => {
    api = await activateHost();
    answers = answerDialogs(api, {
      confirmTrust: async (q) => {
        trustAsked.push({ server: q.serverName, source: q.source });
        return true;
      },
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-migrate-'));
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.writeFileSync(
      vscodeFile(),
      [
        '{',
        "  // This folder's servers.",
        '  "servers": {',
        '    // The fixture server, moved to .mcp.json and back.',
        '    "moving-basic": {',
        `      "command": ${JSON.stringify(process.execPath)},`,
        `      "args": [${JSON.stringify(basic)}, "migrated"],`,
        '      "env": { "FIXTURE_ECHO_ENV": "MIGRATED_HOME", "MIGRATED_HOME": "${env:HOME}" }, // the home folder, as a variable',
        '    },',
        '    "asks-token": {',
        `      "command": ${JSON.stringify(process.execPath)},`,
        `      "args": [${JSON.stringify(basic)}, "\${input:token}"],`,
        '      "disabled": true,',
        '    },',
        '  },',
        '  "inputs": [{ "type": "promptString", "id": "token", "description": "A token", "password": true }],',
        '}',
        '',
      ].join('\n'),
    );
    await waitFor(() => vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, { uri: vscode.Uri.file(dir) }), 'the folder added');
    await waitFor(() => vscode.workspace.workspaceFolders!.some((f) => f.uri.fsPath === dir), 'the folder in the workspace');
  });

  after(async () => {
    await run('workbench.action.closeQuickOpen');
    answers.dispose();
    await waitFor(() => {
      const index = vscode.workspace.workspaceFolders!.findIndex((f) => f.uri.fsPath === dir);
      return index < 0 || (vscode.workspace.updateWorkspaceFolders(index, 1) && false);
    }, 'the folder removed');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('moves a server from .vscode/mcp.json to .mcp.json: what cannot move stays with its reason, comments stay, and it runs from .mcp.json', async () => {
    const before = await runningFrom('moving-basic', vscodeFile());
    assert.strictEqual(await homeSeen(before.id), os.homedir());
    const folder = path.basename(dir);

    const migrating = vscode.commands.executeCommand<MigrationResult | undefined>('mcpHost.migrateConfiguration');
    const directions = await pick('direction', 'the directions');
    const direction = `${folder}/.vscode/mcp.json → ${folder}/.mcp.json`;
    assert.ok(
      directions.items.includes(`${direction} — 2 servers — To the mcpServers format, which VS Code 1.140, Claude Code and Copilot CLI read`),
      directions.items.join('\n'),
    );
    // .mcp.json has no server yet: nothing is offered from it.
    assert.ok(!directions.items.some((i) => i.startsWith(`${folder}/.mcp.json →`)), directions.items.join('\n'));
    await select(direction);
    await run('workbench.action.acceptSelectedQuickOpenItem');

    const servers = await pick('migrate', 'the servers');
    assert.strictEqual(servers.title, `Migrate MCP Configuration: ${direction}`);
    assert.deepStrictEqual(servers.items, [
      // Environment values are masked in the pick, variables shown as written.
      `moving-basic — moves — Command: ${process.execPath} ${basic} migrated · ⚠ FIXTURE_ECHO_ENV=MIGRATED_HOME (env) — not known to be harmless: it may change what runs · ⚠ MIGRATED_HOME=\${env:HOME} (env) — not known to be harmless: it may change what runs · its comments were not copied: ${folder}/.mcp.json has none, and Claude Code reads it as plain JSON`,
      `asks-token — stays — Stays: it asks for values (\${input:token}), which ${folder}/.mcp.json cannot hold: VS Code's format keeps them in secret storage, asked once, and the other format has no inputs (as environment variables, each would have to be set by you)`,
    ]);
    // What can move is checked; accepting moves it.
    assert.deepStrictEqual(servers.selected, [servers.items[0]]);
    await run('workbench.action.acceptSelectedQuickOpenItem');
    const result = await migrating;
    assert.ok(result);
    assert.deepStrictEqual(result.moved, ['moving-basic']);
    assert.deepStrictEqual(result.stayed, []);
    assert.match(result.message, /^MCP Host: moved moving-basic from .*\.vscode\/mcp\.json to .*\.mcp\.json\. moving-basic: its comments were not copied: .* You are asked before it runs from .*\.mcp\.json, unless you trusted it there before/);

    assert.strictEqual(
      fs.readFileSync(vscodeFile(), 'utf8'),
      [
        '{',
        "  // This folder's servers.",
        '  "servers": {',
        '    "asks-token": {',
        `      "command": ${JSON.stringify(process.execPath)},`,
        `      "args": [${JSON.stringify(basic)}, "\${input:token}"],`,
        '      "disabled": true,',
        '    },',
        '  },',
        '  "inputs": [{ "type": "promptString", "id": "token", "description": "A token", "password": true }],',
        '}',
        '',
      ].join('\n'),
    );
    assert.strictEqual(
      fs.readFileSync(mcpFile(), 'utf8'),
      [
        '{',
        '  "mcpServers": {',
        '    "moving-basic": {',
        `      "command": ${JSON.stringify(process.execPath)},`,
        `      "args": [${JSON.stringify(basic)}, "migrated"],`,
        '      "env": { "FIXTURE_ECHO_ENV": "MIGRATED_HOME", "MIGRATED_HOME": "${HOME}" }',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );

    // It runs from its new file (asked about there, as the result said), with the same home folder; the old one is gone.
    const after = await runningFrom('moving-basic', mcpFile());
    assert.ok(trustAsked.some((q) => q.server === 'moving-basic' && q.source.endsWith('.mcp.json')), JSON.stringify(trustAsked));
    assert.strictEqual(await homeSeen(after.id), os.homedir());
    await waitFor(() => !api.getServers().some((s) => s.name === 'moving-basic' && s.scope.configPath === vscodeFile()), 'the old definition gone');
  });

  it('moves it back to .vscode/mcp.json, its variable written as VS Code writes it, and it runs from there again', async () => {
    const folder = path.basename(dir);
    const migrating = vscode.commands.executeCommand<MigrationResult | undefined>('mcpHost.migrateConfiguration');
    await pick('direction', 'the directions');
    await select(`${folder}/.mcp.json → ${folder}/.vscode/mcp.json`);
    await run('workbench.action.acceptSelectedQuickOpenItem');
    const servers = await pick('migrate', 'the servers');
    assert.deepStrictEqual(servers.selected, [`moving-basic — moves — Command: ${process.execPath} ${basic} migrated · ⚠ FIXTURE_ECHO_ENV=MIGRATED_HOME (env) — not known to be harmless: it may change what runs · ⚠ MIGRATED_HOME=\${HOME} (env) — not known to be harmless: it may change what runs`]);
    await run('workbench.action.acceptSelectedQuickOpenItem');
    assert.deepStrictEqual((await migrating)?.moved, ['moving-basic']);

    assert.strictEqual(fs.readFileSync(mcpFile(), 'utf8'), '{\n  "mcpServers": {\n  }\n}\n');
    const text = fs.readFileSync(vscodeFile(), 'utf8');
    assert.ok(text.startsWith("{\n  // This folder's servers.\n  \"servers\": {\n    \"asks-token\": {"), text);
    assert.ok(text.includes('"env": { "FIXTURE_ECHO_ENV": "MIGRATED_HOME", "MIGRATED_HOME": "${env:HOME}" }'), text);
    const back = await runningFrom('moving-basic', vscodeFile());
    assert.strictEqual(await homeSeen(back.id), os.homedir());
  });

  it("moves a server from VS Code's user mcp.json to ~/.copilot/mcp-config.json, where it runs without a trust question", async () => {
    const vscodeMcp = api.testing.configFiles().find((f) => f.label === 'User (VS Code)')!.path;
    const copilot = path.join(os.homedir(), '.copilot', 'mcp-config.json');
    fs.mkdirSync(path.dirname(vscodeMcp), { recursive: true });
    fs.writeFileSync(vscodeMcp, `{\n  "servers": {\n    // Mine, for every workspace.\n    "user-moving": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(basic)}, "user"] }\n  }\n}\n`);
    try {
      await api.testing.reloadConfiguration();
      await runningFrom('user-moving', vscodeMcp);
      const migrating = vscode.commands.executeCommand<MigrationResult | undefined>('mcpHost.migrateConfiguration');
      await pick('direction', 'the directions');
      await select("VS Code's user mcp.json → ~/.copilot/mcp-config.json — 1 server");
      await run('workbench.action.acceptSelectedQuickOpenItem');
      const servers = await pick('migrate', 'the servers');
      assert.strictEqual(servers.selected.length, 1, servers.items.join('\n'));
      await run('workbench.action.acceptSelectedQuickOpenItem');
      const result = await migrating;
      assert.deepStrictEqual(result?.moved, ['user-moving']);
      assert.doesNotMatch(result.message, /asked/, 'the user\'s own file: no trust question');

      assert.strictEqual(fs.readFileSync(vscodeMcp, 'utf8'), '{\n  "servers": {\n  }\n}\n');
      assert.deepStrictEqual(JSON.parse(fs.readFileSync(copilot, 'utf8')), { mcpServers: { 'user-moving': { command: process.execPath, args: [basic, 'user'] } } });
      const asked = trustAsked.length;
      await runningFrom('user-moving', copilot);
      assert.strictEqual(trustAsked.length, asked);
      await waitFor(() => !api.getServers().some((s) => s.name === 'user-moving' && s.scope.configPath === vscodeMcp), 'the old definition gone');
    } finally {
      fs.rmSync(vscodeMcp, { force: true });
      fs.rmSync(copilot, { force: true });
      await api.testing.reloadConfiguration();
    }
  });
});
