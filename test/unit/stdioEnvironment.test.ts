import * as assert from 'assert';
import * as path from 'path';
import { parseEnvFile } from '../../src/core/config/envFile.lazy';
import { buildStdioEnvironment } from '../../src/core/protocol/connection/stdioLauncher.lazy';
import { fixtureServer } from './helpers';
import { createKit, entry, stdio, userScope, waitForState, type Kit } from './hostTestKit';

describe('the environment a stdio server gets', () => {
  const base = { HOME: '/home/me', PATH: '/usr/bin', SECRET_OF_USER: 'kept', EMPTY: undefined };

  it('is the whole user environment, then envFile, then env, where null removes', () => {
    const env = buildStdioEnvironment(base, { A: 'from-env', B: null, HOME: null }, parseEnvFile('A=from-file\nB=from-file\nC=only-in-file\n'));
    assert.deepStrictEqual(env, { PATH: '/usr/bin', SECRET_OF_USER: 'kept', A: 'from-env', C: 'only-in-file' });
  });

  it('puts a configured PATH in front of the inherited one instead of replacing it', () => {
    const env = buildStdioEnvironment(base, { PATH: '/opt/tool/bin' });
    assert.strictEqual(env.PATH, `/opt/tool/bin${path.delimiter}/usr/bin`);
    const already = buildStdioEnvironment(base, { PATH: `/opt/tool/bin${path.delimiter}/usr/bin` });
    assert.strictEqual(already.PATH, `/opt/tool/bin${path.delimiter}/usr/bin`, 'not added twice');
  });

  it('matches PATH whatever its case (Windows spells it Path)', () => {
    const env = buildStdioEnvironment({ Path: 'C:\\Windows' }, { PATH: 'C:\\tools' });
    assert.deepStrictEqual(Object.keys(env), ['Path']);
    assert.strictEqual(env.Path, `C:\\tools${path.delimiter}C:\\Windows`);
  });
});

describe('the environment a stdio server really gets', function () {
  this.timeout(30_000);
  let kit: Kit | undefined;
  afterEach(async () => kit?.manager.disposeAsync());

  it('removes even the variables the SDK would always pass (HOME, PATH) when the config says null', async () => {
    kit = createKit();
    const server = stdio(process.execPath, [fixtureServer('basic-server.mjs')], { HOME: null, FIXTURE_ECHO_ENV: 'HOME,SHELL,KEPT', KEPT: 'yes', SHELL: null });
    await kit.update(userScope, [entry('env', server)], []);
    await waitForState(kit, 'env', 'running');
    const result = await kit.manager.session('user::env').callTool({ name: 'whoami', arguments: {} });
    const { env } = JSON.parse((result.content as { text: string }[])[0].text) as { env: Record<string, string | null> };
    assert.deepStrictEqual(env, { HOME: null, SHELL: null, KEPT: 'yes' });
  });
});
