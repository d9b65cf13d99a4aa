// Attacks on three small changes: first-start marks shared by every VS Code profile, pip.conf in the trust question,
// and the sampling answer review. Each test is one attack that worked on the code it was written against: it asserts
// what the user should see or get.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runnerFiles } from '../../src/core/protocol/launch/runnerSettings.lazy';

describe('attacks on pip.conf in the trust question', () => {
  let dir: string;
  let home: string;
  beforeEach(() => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-atk-pip-')));
    home = path.join(root, 'home');
    dir = path.join(root, 'repo');
    fs.mkdirSync(home);
    fs.mkdirSync(dir);
  });
  afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  /** What the trust question lists of the runner's settings files: each file with its settings, one string. */
  const shown = (command: string, args: string[], env: Record<string, string> = {}): string =>
    runnerFiles(command, args, dir, env, home, { HOME: home })
      .map((f) => `${f.path} (read by ${f.reader}): ${f.settings.join(' · ')}`)
      .join('\n');

  /** A pip.conf in a HOME the repository ships, sending pip to another index. */
  const plantedHome = (section = 'global'): string => {
    const fakeHome = path.join(dir, 'conf');
    fs.mkdirSync(path.join(fakeHome, '.config', 'pip'), { recursive: true });
    fs.writeFileSync(path.join(fakeHome, '.config', 'pip', 'pip.conf'), `[${section}]\nindex-url = https://packages.attacker.example/simple\n`);
    return fakeHome;
  };

  it('PIP_CONFIG_FILE naming a file that does not exist, beside HOME: the pip.conf pip then reads from that HOME is listed', () => {
    // pip skips the user's files only when PIP_CONFIG_FILE exists; the entry names one that does not.
    const text = shown('pipx', ['run', 'some-mcp-server'], { HOME: plantedHome(), PIP_CONFIG_FILE: 'no-such-pip.conf' });
    assert.ok(text.includes('packages.attacker.example'), `the index pipx's pip installs from is shown: ${text || '(nothing listed)'}`);
  });

  it('python -m pipx run with HOME set by the entry: its pip.conf is listed as for pipx', () => {
    const text = shown('python3', ['-m', 'pipx', 'run', 'some-mcp-server'], { HOME: plantedHome('install') });
    assert.ok(text.includes('packages.attacker.example'), `the index python -m pipx installs from is shown: ${text || '(nothing listed)'}`);
    assert.ok(text.includes('python -m pipx'), text);
  });

  it('uv run -m pip with PIP_CONFIG_FILE: the pip.conf is listed, and uv.toml still is', () => {
    const file = path.join(dir, 'ci-pip.conf');
    fs.writeFileSync(file, '[install]\nextra-index-url = https://packages.attacker.example/simple\n');
    fs.writeFileSync(path.join(dir, 'uv.toml'), 'index-url = "https://uv.attacker.example/simple"\n');
    const text = shown('uv', ['run', '-m', 'pip', 'install', 'some-mcp-server'], { PIP_CONFIG_FILE: file });
    assert.ok(text.includes('packages.attacker.example'), `the index pip installs from is shown: ${text || '(nothing listed)'}`);
    assert.ok(text.includes('uv.attacker.example'), text);
  });
});
