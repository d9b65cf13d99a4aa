// Skills (the io.modelcontextprotocol/skills extension, SEP-2640) against the skills fixture over real stdio: entries
// are listed at start and no file is read before one is asked for; files are verified by the SDK, a tampered SKILL.md
// is refused, noted in the features (the view says why), and never returned; the Servers view's rows show it.
import * as assert from 'assert';
import { SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { skillRows } from '../../src/vscode/skills/skillRows.lazy';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, serverState, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

const scope = workspaceScope();
const reads = (kit: Kit) => [...kit.log('skills').text.matchAll(/READ (\S+)/g)].map((m) => m[1]);

describe('skills: listing, verified reads, refusals', function () {
  this.timeout(30_000);
  let kit: Kit;

  async function start() {
    kit = createKit();
    await kit.update(scope, [entry('skills', stdio(process.execPath, [fixtureServer('skills-server.mjs')]))], []);
    return waitForState(kit, 'skills', 'running');
  }

  afterEach(async () => {
    await kit?.manager.disposeAsync();
  });

  it('lists every skill at start and reads none of their files', async () => {
    const info = await start();
    assert.deepStrictEqual(
      info.features.skills?.map((s) => s.frontmatter.name),
      ['code-review', 'release-notes', 'tampered'],
    );
    assert.match(kit.log('skills').text, /3 skills/);
    // Give a prefetch (if any) the time to show in the log.
    await new Promise((r) => setTimeout(r, 300));
    assert.deepStrictEqual(reads(kit), [], 'no skill file read ahead of need');
  });

  it('lists the skills again when the server says its resources changed (skills are resources), reading no file', async () => {
    kit = createKit();
    await kit.update(scope, [entry('skills', stdio(process.execPath, [fixtureServer('skills-server.mjs')], { SKILLS_ADD_AFTER_MS: '300' }))], []);
    await waitForState(kit, 'skills', 'running');
    const names = () => serverState(kit, 'skills')?.features.skills?.map((s) => s.frontmatter.name) ?? [];
    await waitFor(() => names().includes('late'), 'the skill added after list_changed', 5_000);
    assert.deepStrictEqual(names(), ['code-review', 'release-notes', 'tampered', 'late']);
    assert.deepStrictEqual(reads(kit), [], 'no skill file read ahead of need');
  });

  it('reads a skill and its files verified, each only when asked', async () => {
    const info = await start();
    const session = kit.manager.session(info.id);
    const skill = info.features.skills![0];
    const manifest = await session.readSkillFile(skill);
    assert.strictEqual(manifest.verified, true);
    assert.match(manifest.body ?? '', /go through references\/CHECKLIST\.md/);
    assert.deepStrictEqual(manifest.frontmatter, { name: 'code-review', description: 'Review a change for correctness and style' });
    const checklist = await session.readSkillFile(skill, 'references/CHECKLIST.md');
    assert.match(checklist.text ?? '', /No secrets in logs/);
    await waitFor(() => reads(kit).length === 2, 'two reads logged', 5_000);
    assert.deepStrictEqual(reads(kit), ['skill://code-review/SKILL.md', 'skill://code-review/references/CHECKLIST.md']);
  });

  it('refuses a SKILL.md whose digest does not match, says why in the features and in the view', async () => {
    const info = await start();
    const tampered = info.features.skills!.find((s) => s.frontmatter.name === 'tampered')!;
    await assert.rejects(kit.manager.session(info.id).readSkillFile(tampered), (e: unknown) => e instanceof SkillVerificationError && e.reason === 'digest');
    const now = await waitFor(() => serverState(kit, 'skills')?.features.skillFailures?.[tampered.uri] && serverState(kit, 'skills'), 'failure noted', 5_000);
    assert.match(now.features.skillFailures![tampered.uri], /digest/i);
    assert.match(kit.log('skills').text, /Skill file skill:\/\/tampered\/SKILL\.md refused/);

    const [group] = skillRows(now);
    assert.strictEqual(group.label, 'Skills (3)');
    const row = group.children!.find((r) => r.label === 'tampered')!;
    assert.strictEqual(row.description, 'refused: failed verification');
    assert.strictEqual(row.icon?.id, 'warning');
    assert.match(row.tooltip ?? '', /\*\*Refused:\*\*.*digest/i);
    const sound = group.children!.find((r) => r.label === 'code-review')!;
    assert.strictEqual(sound.icon?.id, 'book');
    assert.deepStrictEqual(
      sound.children!.map((c) => c.label),
      ['SKILL.md', 'references/CHECKLIST.md'],
    );
    assert.deepStrictEqual(sound.children![1].command?.arguments, [info.id, 'skill://code-review/SKILL.md', 'skill://code-review/references/CHECKLIST.md']);
  });

  it('shows no Skills group for a server without the extension', async () => {
    kit = createKit();
    await kit.update(scope, [entry('basic', stdio(process.execPath, [fixtureServer('basic-server.mjs')]))], []);
    const info = await waitForState(kit, 'basic', 'running');
    assert.strictEqual(info.features.skills, undefined);
    assert.deepStrictEqual(skillRows(info), []);
  });
});
