// "MCP Host: Migrate Configuration…": moves servers between VS Code's format and the mcpServers format, a folder's
// .vscode/mcp.json ⇄ .mcp.json, and the user's mcp.json (MCP Host's or VS Code's) ⇄ ~/.copilot/mcp-config.json. The
// user picks the direction, then the servers (each shown with what it runs, or why it stays); the core (configMigration.lazy) makes the two
// edits and reads both files back. The target is written first, the source only after it: a server is never in
// neither file. Both files are reloaded, so the moved servers run from their new file (a workspace file's are asked
// about again: trust is remembered per launch plan, which names its file; the result says so).
import vscode = require('vscode');
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { migrateServers, migrationCandidates, type ConfigText, type MigrationContext, type ShadowingName } from '../../core/config/configMigration.lazy';
import { describeDefinition } from '../../core/presentation/describeDefinition';
import { userValue } from '../../core/config/tightenedSettings';
import { labelText, plainText, truncate } from '../../core/presentation/serverText';
import type { Item } from '../mcpRegistry/registryPick.lazy';
import type { MigrationResult, RegistryBrowserDeps, RegistryPickState } from '../mcpRegistry/registerRegistryCommands';
import { copilotTarget, preferredFormat, vscodeUserTarget, writeTargets, type WriteTarget } from './writeTargets.lazy';

/** The picks the flow shows (the registry browser's, which tests see). */
export interface MigrationPicks {
  pickOne(step: RegistryPickState['step'], title: string, items: Item[], placeholder: string): Promise<Item | undefined>;
  pickMany(step: RegistryPickState['step'], title: string, items: Item[], placeholder: string): Promise<readonly Item[] | undefined>;
}

const TITLE = 'Migrate MCP Configuration';

async function readText(uri: vscode.Uri): Promise<string> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return ''; // no file yet
  }
}

/**
 * Each pair of files a server can move between, both ways: a folder's .vscode/mcp.json and .mcp.json; the user's
 * mcp.json (MCP Host's, and VS Code's own) and ~/.copilot/mcp-config.json.
 */
function directions(deps: RegistryBrowserDeps): { from: WriteTarget; to: WriteTarget }[] {
  const all = writeTargets(deps.configLoader.userConfigUri);
  const copilot = copilotTarget();
  const pairs: [WriteTarget, WriteTarget][] = [];
  // writeTargets lists each folder's two files together, .vscode/mcp.json first (two folders may share a name).
  const folders = all.filter((t) => t.scope === 'workspace');
  for (let i = 0; i + 1 < folders.length; i += 2) pairs.push([folders[i], folders[i + 1]]);
  pairs.push([all.find((t) => t.scopeKey === 'user')!, copilot], [vscodeUserTarget(deps.configLoader.vscodeProfile), copilot]);
  return pairs.flatMap(([a, b]) => [
    { from: a, to: b },
    { from: b, to: a },
  ]);
}

/**
 * The names the user's files read before `to` define (all but `from`, whose moved names leave it): a server moved
 * under one of them would not run from `to` (the other would, in its place). A folder's .vscode/mcp.json, the only
 * file read before its .mcp.json, is always the other side of a move.
 */
async function namesReadBefore(deps: RegistryBrowserDeps, from: WriteTarget, to: WriteTarget): Promise<ShadowingName[]> {
  if (to.scope !== 'user' || to.scopeKey === 'user') return [];
  const own = { uri: deps.configLoader.userConfigUri, key: 'user', where: 'your mcp.json' };
  const vscodeMcp = vscodeUserTarget(deps.configLoader.vscodeProfile);
  const earlier = to.format === 'mcpServers' ? [own, { uri: vscodeMcp.uri, key: vscodeMcp.scopeKey, where: vscodeMcp.where }] : [own];
  const names = (text: string, where: string): ShadowingName[] => {
    const parsed = deps.config.parse(text, 'vscode');
    return [...parsed.servers.map((s) => s.name), ...parsed.rejectedServers].map((name) => ({ name, where }));
  };
  const found = await Promise.all(earlier.filter((f) => f.key !== from.scopeKey).map(async (f) => names(await readText(f.uri), f.where)));
  if (to.format === 'mcpServers') {
    // VS Code's settings.json `mcp` is read before Copilot CLI's file too.
    const settings = await readText(vscode.Uri.joinPath(deps.configLoader.vscodeProfile, 'settings.json'));
    const root = parseTree(settings, [], { allowTrailingComma: true });
    const mcp = root && findNodeAtLocation(root, ['mcp']);
    if (mcp) found.push(names(settings.slice(mcp.offset, mcp.offset + mcp.length), 'your settings.json (mcp)'));
  }
  return found.flat();
}

/** Whether a server moved to `to` is asked about before it runs there, in words for the result. */
function trustAfterMove(to: WriteTarget, count: number): string | undefined {
  if (to.scope !== 'workspace') return undefined;
  const them = count === 1 ? 'it' : 'them';
  // Only your own setting counts (../settings.ts): a workspace cannot turn the question off.
  if (userValue<boolean | undefined>(vscode.workspace.getConfiguration('mcpHost'), 'trustAllServers').user === true) return `${to.where} is a workspace file, and mcpHost.trustAllServers runs ${them} without asking.`;
  return `You are asked before ${count === 1 ? 'it runs' : 'they run'} from ${to.where}, unless you trusted ${them} there before: trust is remembered for what a server runs and the file it is in.`;
}

export async function migrateConfiguration(deps: RegistryBrowserDeps, picks: MigrationPicks): Promise<MigrationResult | undefined> {
  const context: MigrationContext = { parse: (text, format) => deps.config.parse(text, format) };
  const pairs = directions(deps);
  const texts = new Map(await Promise.all(pairs.map(async ({ from: t }) => [t.scopeKey, await readText(t.uri)] as const)));
  const count = (t: WriteTarget) => {
    const parsed = deps.config.parse(texts.get(t.scopeKey)!, t.format);
    return parsed.servers.length + parsed.rejectedServers.length;
  };
  // Towards the format the user writes in first (what they picked last, else what their VS Code writes).
  const preferred = preferredFormat(deps.state);
  const offered = pairs
    .filter((d) => count(d.from) > 0)
    .sort((a, b) => Number(a.to.format !== preferred) - Number(b.to.format !== preferred));
  if (!offered.length) {
    void vscode.window.showInformationMessage(`MCP Host: no server to migrate: .vscode/mcp.json, .mcp.json, your mcp.json, VS Code's user mcp.json and ${copilotTarget().where} have none.`);
    return undefined;
  }
  const directionItems = offered.map(
    (d): Item => ({
      label: labelText(`${d.from.where} → ${d.to.where}`),
      description: `${count(d.from)} ${count(d.from) === 1 ? 'server' : 'servers'}`,
      detail: d.to.format === 'mcpServers' ? 'To the mcpServers format, which VS Code 1.140, Claude Code and Copilot CLI read' : "To VS Code's format (servers and inputs)",
      direction: d,
    }),
  );
  const direction = (await picks.pickOne('direction', TITLE, directionItems, 'Move servers from which file to which?'))?.direction;
  if (!direction) return undefined;
  const { from, to } = direction;
  context.shadowing = await namesReadBefore(deps, from, to);

  const source: ConfigText = { text: texts.get(from.scopeKey)!, format: from.format, where: from.where };
  const target: ConfigText = { text: texts.get(to.scopeKey)!, format: to.format, where: to.where };
  const parsed = deps.config.parse(source.text, from.format);
  const items = migrationCandidates(source, target, context).map((c): Item => {
    const server = parsed.servers.find((s) => s.name === c.name)?.server;
    const runs = server ? describeDefinition(server).split('\n').join(' · ') : '';
    return {
      label: labelText(truncate(c.name, 200)),
      description: c.reason ? 'stays' : 'moves',
      detail: labelText(truncate(c.reason ? `Stays: ${c.reason}` : [runs, ...c.notes].filter(Boolean).join(' · '), 600)),
      server: { name: c.name, reason: c.reason },
      // What can move is checked; what cannot is shown with its reason.
      picked: !c.reason,
    };
  });
  if (!items.length) {
    void vscode.window.showWarningMessage(`MCP Host: ${from.where} cannot be read (it has syntax errors): fix them first; nothing was moved.`);
    return undefined;
  }
  const picked = await picks.pickMany('migrate', `${TITLE}: ${from.where} → ${to.where}`, items, `Pick the servers to move to ${to.where} (each leaves ${from.where} once it is written there)`);
  if (!picked?.length) return undefined;

  // Unsaved edits of either file would be lost, or would overwrite the move.
  const dirty = [from, to].find((t) => vscode.workspace.textDocuments.some((d) => d.uri.toString() === t.uri.toString() && d.isDirty));
  if (dirty) {
    void vscode.window.showErrorMessage(`MCP Host: save ${dirty.where} first; it has unsaved changes.`);
    return undefined;
  }
  // Read again: what is written is made from what the files hold now.
  const result = migrateServers({ ...source, text: await readText(from.uri) }, { ...target, text: await readText(to.uri) }, picked.map((i) => i.server!.name), context);
  const moved = result.moved.map((m) => m.name);
  if (moved.length) {
    // An entry written for the user (Import, Install for User) and not trusted yet still asks once moved.
    const unconfirmed = moved.filter((name) => deps.firstStarts.has(from.scopeKey, name));
    if (unconfirmed.length) await deps.firstStarts.mark(to.scopeKey, unconfirmed);
    try {
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(to.uri, '..'));
      await vscode.workspace.fs.writeFile(to.uri, new TextEncoder().encode(result.target));
    } catch (e) {
      void vscode.window.showErrorMessage(plainText(`MCP Host: could not write ${to.where} (${(e as Error).message}): nothing was moved.`));
      return undefined;
    }
    // Read back from the disk before anything leaves the source: the target must hold what was written.
    const written = await readText(to.uri);
    if (written !== result.target) {
      void vscode.window.showErrorMessage(`MCP Host: ${to.where} does not read back as written (another program may have changed it): ${from.where} was left as it was; check ${to.where}.`);
      await deps.configLoader.reload(to.scopeKey);
      return undefined;
    }
    try {
      await vscode.workspace.fs.writeFile(from.uri, new TextEncoder().encode(result.source));
    } catch (e) {
      void vscode.window.showErrorMessage(plainText(`MCP Host: ${moved.join(', ')} written to ${to.where}, but ${from.where} could not be written (${(e as Error).message}): they are in both files; take them out of ${from.where}.`));
    }
    await deps.configLoader.reload(to.scopeKey);
    await deps.configLoader.reload(from.scopeKey);
  }
  const said = [moved.length ? `moved ${moved.join(', ')} from ${from.where} to ${to.where}.` : `moved nothing to ${to.where}.`];
  if (result.stayed.length) said.push(`Still in ${from.where}: ${result.stayed.map((s) => `${s.name} (${s.reason})`).join('; ')}.`);
  for (const m of result.moved) if (m.notes.length) said.push(`${m.name}: ${m.notes.join('; ')}.`);
  const trust = moved.length ? trustAfterMove(to, moved.length) : undefined;
  if (trust) said.push(trust);
  const message = plainText(truncate(`MCP Host: ${said.join(' ')}`, 2000));
  void (result.stayed.length ? vscode.window.showWarningMessage(message) : vscode.window.showInformationMessage(message));
  return { from: from.uri, to: to.uri, moved, stayed: result.stayed, message };
}
