// Writing an entry from a registry (or another tool's file) into an mcp.json: a comment-keeping edit, required values
// asked first, secrets asked once into secret storage, the configuration reloaded. Into a file of the mcpServers format
// (.mcp.json, ~/.copilot/mcp-config.json) the entry is written as that format writes it, and only without inputs.
import vscode = require('vscode');
import type { InputDefinition } from '../../core/config/serverDefinition';
import { labelText, plainText, truncate } from '../../core/presentation/serverText';
import { McpJsonWriteError, writeServer } from '../../core/config/mcpJsonWriter';
import { translateEntry } from '../../core/config/configMigration.lazy';
import type { WriteTarget } from '../config/writeTargets.lazy';
import type { InstallPlan } from '../../core/features/mcpRegistry/serverJsonMapping';
import type { ConfigLoader } from '../config/configLoader';
import type { FirstStartMarks } from '../../core/host/firstStartMarks';
import type { HostDialogs } from '../dialogs/dialogRouter';
import type { StoredInputs } from '../config/storedInputs';
import type { ConfigModel } from '../../core/config/foreignConfigs';
import type { RegistryInstallResult } from './registerRegistryCommands';

export interface RegistryWriteDeps {
  configLoader: ConfigLoader;
  /** Entries written into the user's files ask the trust question at their first start. */
  firstStarts: Pick<FirstStartMarks, 'mark'>;
  inputs: StoredInputs;
  dialogs: HostDialogs;
  config: ConfigModel;
}

/** The entry as `target`'s format writes it, or (said to the user) undefined when that format cannot hold it. */
export function entryFor(target: WriteTarget, name: string, entry: object, inputs: InputDefinition[]): object | undefined {
  if (target.format === 'vscode') return entry;
  const translated = translateEntry(entry, 'vscode', 'mcpServers', target.where);
  const why = inputs.length ? [`it asks for values (${inputs.map((i) => i.id).join(', ')}) that only VS Code's format can hold: answer them, or write it into .vscode/mcp.json or your mcp.json`] : translated.ok ? [] : translated.reasons;
  if (why.length || !translated.ok) {
    void vscode.window.showErrorMessage(`MCP Host: ${plainText(truncate(name, 200))} cannot be written to ${target.where}: ${plainText(truncate(why.join('; '), 400))}`);
    return undefined;
  }
  return translated.entry;
}

export async function askValue(dialogs: HostDialogs, serverName: string, input: InputDefinition): Promise<string | undefined> {
  // Registry entries have no command inputs.
  if (input.type === 'command') return undefined;
  if (input.type === 'pickString') {
    const items = input.options.map((o) => ({ label: labelText(o), value: o }));
    return (await vscode.window.showQuickPick(items, { title: plainText(`${serverName}: ${input.description}`), ignoreFocusOut: true }))?.value;
  }
  return dialogs.inputText({ title: `Install ${serverName}`, prompt: input.description, password: false });
}

/** Writes the entry into the target mcp.json (comments kept; `key`: the entry replaced), then asks its secrets once. */
export async function writeInstall(deps: RegistryWriteDeps, plan: InstallPlan, target: WriteTarget, key = plan.name): Promise<RegistryInstallResult | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.uri.toString());
  if (open?.isDirty) {
    void vscode.window.showErrorMessage(`MCP Host: save ${vscode.workspace.asRelativePath(target.uri)} first; it has unsaved changes.`);
    return undefined;
  }
  let before = '';
  try {
    before = new TextDecoder().decode(await vscode.workspace.fs.readFile(target.uri));
  } catch {
    // A new file.
  }
  const entry = entryFor(target, plan.name, plan.entry, plan.inputs);
  if (!entry) return undefined;
  let written: ReturnType<typeof writeServer>;
  try {
    written = writeServer(before, { ...plan, entry }, key, target.format);
  } catch (e) {
    if (!(e instanceof McpJsonWriteError)) throw e;
    void vscode.window.showErrorMessage(`MCP Host: cannot add the server to ${target.where}: ${e.message}`);
    return undefined;
  }
  // Marked before the file is written: the start its reading causes asks the trust question, as a workspace's would.
  if (target.scope === 'user') await deps.firstStarts.mark(target.scopeKey, [key]);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target.uri, '..'));
  await vscode.workspace.fs.writeFile(target.uri, new TextEncoder().encode(written.text));

  // Secrets once, now, into secret storage: the server's first start finds them there.
  const parsed = deps.config.parse(written.text, target.format);
  const server = parsed.servers.find((s) => s.name === plan.name);
  if (server) {
    const used = new Set(deps.config.referencedInputIds(server.server));
    for (const input of parsed.inputs) {
      if (used.has(input.id) && input.type === 'promptString' && input.password) {
        if ((await deps.inputs.getInput(target.scopeKey, input, true)) === undefined) break;
      }
    }
  }
  await deps.configLoader.reload(target.scopeKey);
  void vscode.window.showInformationMessage(
    `MCP Host: ${written.replaced ? 'updated' : 'added'} ${plainText(truncate(plan.name, 200))} ${plainText(truncate(plan.entry.version, 40))} in ${target.where}.`,
  );
  return { uri: target.uri, name: plan.name, replaced: written.replaced };
}
