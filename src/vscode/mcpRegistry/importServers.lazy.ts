// "MCP Host: Import Servers…": the servers other hosts configure, picked, then written into the chosen file (the
// registry browser's picks and targets). Loaded on demand, when first used.
import vscode = require('vscode');
import * as fs from 'node:fs/promises';
import { labelText, plainText, truncate } from '../../core/presentation/serverText';
import { McpJsonWriteError, writeServer } from '../../core/config/mcpJsonWriter';
import { rawServerOf } from '../../core/features/mcpRegistry/describeEntry';
import { foreignConfigSources, readForeignConfig, type ImportCandidate } from '../../core/config/foreignConfigs';
import { describeDefinition } from '../../core/presentation/describeDefinition';
import { importSummary } from '../../core/presentation/fittedText';
import { onlyVsCodeFormat, rememberTarget } from '../config/writeTargets.lazy';
import { entryFor } from './registryWrite.lazy';
import type { Item } from './registryPick.lazy';
import type { RegistryBrowserDeps } from './registerRegistryCommands';
import type { MigrationPicks } from '../config/migrateConfiguration.lazy';

export interface ImportResult {
  uri: vscode.Uri;
  imported: string[];
  skipped: string[];
}

/** The picks the import shows, and the files it may write. */
export interface ImportPicks extends MigrationPicks {
  targets(verb: string, detail: string | undefined, needsInputs: string[]): Item[];
}

/**
 * "MCP: Import Servers…": the servers of Claude Desktop, Cursor, Claude Code and VS Code, each shown with what it
 * would run and what it asks, written into the chosen mcp.json. A name already there is left alone.
 */
export async function importServers(deps: RegistryBrowserDeps, picks: ImportPicks): Promise<ImportResult | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, path: f.uri.fsPath }));
  const candidates: ImportCandidate[] = [];
  const unreadable: string[] = [];
  for (const source of foreignConfigSources({ env: process.env, folders })) {
    let text: string;
    try {
      const stat = await fs.stat(source.path);
      if (stat.size > 1024 * 1024) {
        unreadable.push(`${source.label}: larger than 1 MB`);
        continue;
      }
      text = await fs.readFile(source.path, 'utf8');
    } catch {
      continue;
    }
    const read = readForeignConfig(text, source, deps.config, folders.map((f) => f.path));
    if (read.error) unreadable.push(read.error);
    candidates.push(...read.candidates);
  }
  const usable = candidates.filter((c) => c.entry);
  const skipped = candidates.filter((c) => !c.entry).map((c) => `${c.name} (${c.source.label}): ${c.problem}`);
  if (!usable.length) {
    const why = [...unreadable, ...skipped].join('; ');
    void vscode.window.showInformationMessage(`MCP Host: no server to import from Claude Desktop, Cursor, Claude Code or VS Code${why ? ` (${plainText(truncate(why, 300))})` : ''}.`);
    return undefined;
  }
  const items: Item[] = usable.map((c) => {
    const asks = c.inputs.map((i) => `${i.id}${i.type === 'promptString' && i.password ? ' (secret)' : ''}`);
    const runs = describeDefinition(rawServerOf(c.entry!)).split('\n').join(' · ');
    return {
      label: labelText(truncate(c.name, 200)),
      description: labelText(c.source.label),
      detail: labelText(truncate(`${runs}${asks.length ? ` · asks: ${asks.join(', ')}` : ''}`, 600)),
      candidate: c,
    };
  });
  // Those that cannot be imported are rows of their own, with why: a placeholder cannot hold them.
  const notImportable: Item[] = skipped.length ? [{ label: 'Cannot be imported', kind: vscode.QuickPickItemKind.Separator }, ...skipped.map((why) => ({ label: `$(circle-slash) ${labelText(truncate(why, 300))}` }))] : [];
  const picked = (await picks.pickMany('import', 'Import MCP Servers', [...items, ...notImportable], 'Pick the servers to import'))?.filter((i) => i.candidate);
  if (!picked?.length) return undefined;
  // A workspace's own file is not a source for the user's files, whose servers run in every workspace.
  const fromWorkspace = picked.some((i) => i.candidate!.source.inWorkspace);
  const asking = picked.flatMap((i) => i.candidate!.inputs.map((input) => input.id));
  const targets = picks.targets('Import', undefined, asking).filter((t) => !(fromWorkspace && t.target?.scope === 'user'));
  const target = (await picks.pickOne('target', 'Import MCP Servers', targets, `Import where?${onlyVsCodeFormat(asking)}`))?.target;
  if (!target) return undefined;
  void rememberTarget(deps.state, target);
  let text = '';
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target.uri));
  } catch {
    // A new file.
  }
  const imported: string[] = [];
  const present: string[] = [];
  try {
    for (const c of picked.map((i) => i.candidate!)) {
      const already = deps.config.parse(text, target.format).servers.some((s) => s.name === c.name) || imported.includes(c.name);
      const entry = already ? undefined : entryFor(target, c.name, c.entry!, target.format === 'vscode' ? [] : c.inputs);
      if (already) present.push(c.name);
      else if (entry) {
        text = writeServer(text, { name: c.name, entry, inputs: c.inputs }, c.name, target.format).text;
        imported.push(c.name);
      }
    }
  } catch (e) {
    if (!(e instanceof McpJsonWriteError)) throw e;
    void vscode.window.showErrorMessage(`MCP Host: cannot import into ${target.where}: ${e.message}`);
    return undefined;
  }
  if (imported.length) {
    // Marked before the file is written: the starts its reading causes ask the trust question, as a workspace's would.
    if (target.scope === 'user') await deps.firstStarts.mark(target.scopeKey, imported);
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target.uri, '..'));
    await vscode.workspace.fs.writeFile(target.uri, new TextEncoder().encode(text));
    await deps.configLoader.reload(target.scopeKey);
  }
  void vscode.window.showInformationMessage(importSummary(imported, present, vscode.workspace.asRelativePath(target.uri)));
  return { uri: target.uri, imported, skipped: present };
}
