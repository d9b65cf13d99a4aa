// Issue 39, attacks on git that worked on the code before: a hostile server started confined with the default rules
// leaves what an unconfined git would obey (a repository of its own at the workspace root, a hooks folder named by
// core.hooksPath, a rebase todo list). Each is played for real (bubblewrap, git), with a marker file that says whether
// anything planted ran.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { attackWorld } from './attacks39Kit';

describe('issue 39: git never obeys what a confined server wrote (a bare repository made of a folder, a core.hooksPath hooks folder, a rebase left in progress)', function () {
  this.timeout(120_000);
  const world = attackWorld();
  let ws = '';
  beforeEach(() => ({ ws } = world));
  const { git, planted, ran, repository, startConfined, run } = world;

  it('a confined server (default rules) that turns the workspace folder itself into a bare repository gets its core.fsmonitor run by the next unconfined git status', async () => {
    repository();
    const call = await startConfined();
    // .git/HEAD stays writable ("a git server still commits"): made invalid, git no longer takes .git as the repository
    // and looks at the folder itself, whose HEAD, objects, refs and config are not protected names.
    const r = await run(call, [
      'echo not-a-ref > .git/HEAD',
      'mkdir -p objects refs/heads',
      'echo "ref: refs/heads/main" > HEAD',
      `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ${ws}\\n\\tfsmonitor = "${planted()}; false"\\n' > config`,
    ].join(' && '));
    assert.strictEqual(r.status, 0, r.stderr);
    await world.kit!.manager.disposeAsync();
    world.kit = undefined;
    // What VS Code's Git extension runs on its own in the workspace folder.
    git(ws, 'status', '--porcelain');
    assert.ok(!ran(), 'core.fsmonitor of a bare repository the confined server made of the workspace folder ran unconfined');
  });

  it('a confined server (default rules) in a folder that is no repository makes it one (HEAD, objects, refs, config at its root): the next unconfined git status there runs its core.fsmonitor', async () => {
    const call = await startConfined();
    const r = await run(call, `mkdir -p objects refs/heads && echo "ref: refs/heads/main" > HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ${ws}\\n\\tfsmonitor = "${planted()}; false"\\n' > config`);
    assert.strictEqual(r.status, 0, r.stderr);
    await world.kit!.manager.disposeAsync();
    world.kit = undefined;
    git(ws, 'status', '--porcelain');
    assert.ok(!ran(), 'docs/trust-and-security.md says "a .git where there is none (a repository it would make)" is protected; a bare one is not');
  });

  it('a confined server (default rules) in a repository whose core.hooksPath is .githooks gets its pre-commit hook run by the next unconfined git commit', async () => {
    fs.mkdirSync(path.join(ws, '.githooks'));
    fs.writeFileSync(path.join(ws, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    repository();
    assert.strictEqual(git(ws, 'config', 'core.hooksPath', '.githooks').status, 0);
    const call = await startConfined();
    const w = await call('write', { path: path.join(ws, '.githooks', 'pre-commit'), text: `#!/bin/sh\n${planted()}\n`, mode: 0o755 });
    await world.kit!.manager.disposeAsync();
    world.kit = undefined;
    assert.ok(w.isError || !ran());
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b\n');
    git(ws, 'add', 'b.txt');
    git(ws, 'commit', '-q', '-m', 'second');
    assert.ok(!ran(), 'the hooks folder git runs (core.hooksPath) was writable: its pre-commit ran unconfined');
  });

  it('a confined server (default rules) that leaves an interactive rebase in progress gets its exec line run by the next unconfined git rebase --continue', async () => {
    repository();
    const call = await startConfined();
    // .git/rebase-merge is not protected: its todo list, with an `exec` line after a `break`, waits for the user.
    const r = await run(call, `export HOME=$TMPDIR; GIT_SEQUENCE_EDITOR="sed -i 1ibreak" git -c user.name=u -c user.email=u@example.com rebase -q -i --root --exec "${planted()}"; test -f .git/rebase-merge/git-rebase-todo`);
    assert.strictEqual(r.status, 0, r.stderr);
    await world.kit!.manager.disposeAsync();
    world.kit = undefined;
    assert.match(git(ws, 'status').stdout, /rebase in progress/);
    git(ws, 'rebase', '--continue');
    assert.ok(!ran(), 'the exec line of a rebase todo the confined server wrote ran unconfined');
  });
});

describe('issue 39, known limit (docs/architecture.md): a repository a confined server makes inside the workspace folder, staged as a gitlink', function () {
  this.timeout(120_000);
  const world = attackWorld();
  let ws = '';
  beforeEach(() => ({ ws } = world));
  const { git, planted, ran, repository, startConfined, run } = world;

  // Left out of the suite: no sound fix on Linux (docs/architecture.md: Known limits). The runtime protects paths, not
  // names; .git/index stays writable so that a git server commits; git recurses into every gitlink's repository.
  it.skip('a confined server (default rules) that stages a gitlink to a repository of its own gets that repository\'s core.fsmonitor run by git status at the workspace root (git.autoRepositoryDetection: false does not help)', async () => {
    repository();
    const call = await startConfined();
    // Its own git, in its sandbox: a nested repository, added to the workspace's index (.git/index stays writable) as a
    // gitlink; only then the nested repository's config gets the command (so that its own git never ran it).
    const r = await run(call, [
      'export HOME=$TMPDIR',
      'mkdir lib && cd lib && git init -q && echo x > f && git add f && git -c user.name=u -c user.email=u@example.com commit -q -m x && cd ..',
      'git add lib',
      `git config -f lib/.git/config core.fsmonitor "${planted()}; false"`,
    ].join(' && '));
    assert.strictEqual(r.status, 0, r.stderr);
    await world.kit!.manager.disposeAsync();
    world.kit = undefined;
    // git status in the workspace folder (not in lib): it looks into every gitlink's repository.
    git(ws, 'status', '--porcelain');
    assert.ok(!ran(), 'the nested repository\'s core.fsmonitor ran from a git status at the root');
  });
});
