// VS Code's `${command:id}` and inputs of type `command`: a VS Code command's result as a value, as VS Code resolves
// them. A workspace file's command runs only once the user allowed that command with those arguments; the trust
// question shows the command as the value's source; without VS Code (the command line) they are a clear error.
import * as assert from 'assert';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { resolveServer, VariableError } from '../../src/core/config/variables';
import type { InputDefinition, RawServer } from '../../src/core/config/serverDefinition';
import type { TrustPrompt } from '../../src/core/host/hostPorts';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, serverState, stdio, userScope, waitForState, workspaceScope } from './hostTestKit';

const pick: InputDefinition = { type: 'command', id: 'region', command: 'cloud.pickRegion', args: { kind: 'region' } };

describe('${command:…} and command inputs', function () {
  this.timeout(60_000);

  it('reads a command input (no description needed) and ${command:…} as VS Code writes them', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        inputs: [{ type: 'command', id: 'region', command: 'cloud.pickRegion', args: { kind: 'region' } }, { type: 'command', id: 'broken' }],
        servers: { api: { command: 'node', args: ['server.js', '--region', '${input:region}', '--pid', '${command:extension.pickProcess}'] } },
      }),
    );
    assert.deepStrictEqual(parsed.inputs, [pick]);
    assert.deepStrictEqual(parsed.diagnostics.map((d) => d.message), ['The command input "broken" has no "command" (the VS Code command whose result is its value).']);
    assert.deepStrictEqual(parsed.servers.map((s) => s.name), ['api']);
  });

  const raw: RawServer = { type: 'stdio', command: 'node', args: ['--region=${input:region}', '--pid=${command:extension.pickProcess}'], env: {} };
  const base = { userHome: '/home/u', env: {}, pathSeparator: '/', resolveInput: async () => assert.fail('not typed') };

  it('resolves each to the command\'s result, run once each; the question shows the command as the source', async () => {
    const ran: [string, unknown][] = [];
    const runCommand = async (command: string, args: unknown) => (ran.push([command, args]), command === 'cloud.pickRegion' ? 'eu-west' : '4242');
    const { resolved } = await resolveServer(raw, [pick], { ...base, runCommand });
    assert.deepStrictEqual(resolved.type === 'stdio' && resolved.args, ['--region=eu-west', '--pid=4242']);
    assert.deepStrictEqual(ran, [['cloud.pickRegion', { kind: 'region' }], ['extension.pickProcess', undefined]]);
    const shown = await resolveServer(raw, [pick], { ...base, runCommand: async () => assert.fail('not run for display'), showReferences: true });
    assert.deepStrictEqual(shown.resolved.type === 'stdio' && shown.resolved.args, ['--region=${command:cloud.pickRegion}', '--pid=${command:extension.pickProcess}']);
  });

  it('is an error where there is no VS Code to run it in (the command line)', async () => {
    const onlyInput: RawServer = { type: 'stdio', command: 'node', args: ['${input:region}'], env: {} };
    await assert.rejects(resolveServer(onlyInput, [pick], base), (e: Error) => e instanceof VariableError && /Input "region" runs a VS Code command: it cannot be used here/.test(e.message));
    const onlyVariable: RawServer = { type: 'stdio', command: 'node', args: ['${command:x.y}'], env: {} };
    await assert.rejects(resolveServer(onlyVariable, [], base), /\$\{command:x\.y\} cannot be used here: there is no VS Code to run the command in/);
  });

  it('a workspace file\'s command runs only once allowed, with its arguments shown; allowed once per command and arguments', async () => {
    const asked: { serverName: string; command: string; args: unknown }[] = [];
    const answers: (boolean | undefined)[] = [false, true];
    const ran: string[] = [];
    const trustPrompt: TrustPrompt = {
      askTrust: async () => true,
      askRunCommand: async (q) => (asked.push({ serverName: q.serverName, command: q.command, args: q.args }), answers.shift()),
    };
    const kit = createKit({ trustPrompt, runCommand: async (command) => (ran.push(command), '7') }, { trustAllServers: false });
    try {
      const server = stdio(process.execPath, [fixtureServer('basic-server.mjs'), '${input:region}']);
      await kit.update(workspaceScope(), [entry('picked', server)], [pick]);
      const declined = await waitForState(kit, 'picked', 'blocked');
      assert.strictEqual(declined.state.kind === 'blocked' && declined.state.reason, 'input');
      assert.deepStrictEqual(ran, [], 'declined: not run');
      await kit.manager.get(declined.id)!.start(true);
      await waitForState(kit, 'picked', 'running');
      assert.deepStrictEqual(ran, ['cloud.pickRegion']);
      assert.deepStrictEqual(asked, [
        { serverName: 'picked', command: 'cloud.pickRegion', args: { kind: 'region' } },
        { serverName: 'picked', command: 'cloud.pickRegion', args: { kind: 'region' } },
      ]);
      await kit.manager.get(declined.id)!.restart();
      await waitForState(kit, 'picked', 'running');
      assert.strictEqual(asked.length, 2, 'allowed before: not asked again');
      assert.deepStrictEqual(ran, ['cloud.pickRegion', 'cloud.pickRegion']);
      // Other arguments for the same command (the file changed): the server restarts, and asks again.
      await kit.update(workspaceScope(), [entry('picked', server)], [{ ...pick, args: { kind: 'zone' } } as InputDefinition]);
      await waitFor(() => asked.length === 3, 'the question for the new arguments');
      assert.deepStrictEqual(asked[2].args, { kind: 'zone' });
    } finally {
      await kit.manager.disposeAsync();
    }
  });

  it('the user\'s own file runs its command without a question, as VS Code does', async () => {
    const trustPrompt: TrustPrompt = { askTrust: async () => true, askRunCommand: async () => assert.fail('not asked for the user\'s own file') };
    const kit = createKit({ trustPrompt, runCommand: async () => 'eu-west' });
    try {
      const server = stdio(process.execPath, [fixtureServer('basic-server.mjs'), '${input:region}']);
      await kit.update(userScope, [entry('mine', server)], [pick]);
      await waitForState(kit, 'mine', 'running');
      assert.strictEqual(serverState(kit, 'mine')?.state.kind, 'running');
    } finally {
      await kit.manager.disposeAsync();
    }
  });
});
