import * as assert from 'assert';
import { resolveWindowsCommand } from '../../src/core/protocol/launch/commandPath.lazy';

describe('Windows command lookup', () => {
  const files = new Set(['C:\\Program Files\\nodejs\\npx.cmd', 'C:\\ws\\npx.cmd', 'C:\\tools\\uvx.exe']);
  // Windows file names are case-insensitive: PATHEXT gives .CMD, the file is npx.cmd.
  const isFile = (f: string) => [...files].some((x) => x.toLowerCase() === f.toLowerCase());

  it('a workspace folder shipping its own npx.cmd: npx still runs from PATH, never from the folder', () => {
    const env = { Path: 'C:\\Program Files\\nodejs;C:\\tools', PATHEXT: '.COM;.EXE;.BAT;.CMD' };
    assert.strictEqual(resolveWindowsCommand('npx', { env, isFile })?.toLowerCase(), 'c:\\program files\\nodejs\\npx.cmd');
  });

  it('relative PATH entries (".") are the working directory again and are skipped', () => {
    assert.strictEqual(resolveWindowsCommand('npx', { env: { PATH: '.;ws' }, isFile: (f) => f.endsWith('npx.cmd') }), undefined);
  });

  it('finds a command with its extension, and leaves paths alone', () => {
    assert.strictEqual(resolveWindowsCommand('uvx.exe', { env: { PATH: 'C:\\tools' }, isFile }), 'C:\\tools\\uvx.exe');
    assert.strictEqual(resolveWindowsCommand('.\\run.cmd', { env: { PATH: '' }, isFile }), '.\\run.cmd');
    assert.strictEqual(resolveWindowsCommand('C:\\x\\y.exe', { env: { PATH: '' }, isFile }), 'C:\\x\\y.exe');
  });

  it('a command not on PATH is not found (rather than looked for in the folder)', () => {
    assert.strictEqual(resolveWindowsCommand('nope', { env: { PATH: 'C:\\tools' }, isFile }), undefined);
  });
});
