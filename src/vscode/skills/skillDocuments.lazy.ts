// Skill files opened read-only (the io.modelcontextprotocol/skills extension): a file is read and verified by the
// SDK (listed in the entry, size, SHA-256 digest, and for SKILL.md the frontmatter) before anything is shown; one
// that fails is never shown, the user is told why, and the Servers view marks it. Documents of the `mcp-skill`
// scheme come from a content provider, so VS Code opens them read-only.
import vscode = require('vscode');
import type { ChatAttachments } from '../../core/features/resources/chatAttachments';
import type { SessionPort } from '../../core/host/serverSession';
import { sessionForUse } from '../../core/host/sessionForUse';
import { labelText, plainText } from '../../core/presentation/serverText';
import { skillFilePath } from '../../core/features/skills/skillPresentation';

export const SKILL_SCHEME = 'mcp-skill';

interface SkillDocumentTarget {
  serverId: string;
  skillUri: string;
  fileUri: string;
}

/** Reads and verifies; rejects with the SDK's SkillVerificationError when a check fails. */
async function readVerified(port: SessionPort, target: SkillDocumentTarget): Promise<string> {
  const info = port.servers().find((s) => s.id === target.serverId);
  const skill = info?.features.skills?.find((s) => s.uri === target.skillUri);
  if (!info || !skill) throw new Error(`The skill ${target.skillUri} is no longer offered.`);
  const file = await (await sessionForUse(port, target.serverId, 'a read of a skill file')).readSkillFile(skill, target.fileUri);
  return file.text ?? new TextDecoder().decode(file.bytes);
}

class SkillDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** Verified text by document URI; a document VS Code asks for again (reopened) is read and verified again. */
  private readonly texts = new Map<string, string>();

  constructor(private readonly port: SessionPort) {}

  uriOf(target: SkillDocumentTarget, serverName: string, path: string): vscode.Uri {
    return vscode.Uri.from({ scheme: SKILL_SCHEME, path: `/${serverName}/${path}`, query: JSON.stringify(target) });
  }

  remember(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const cached = this.texts.get(uri.toString());
    if (cached !== undefined) return cached;
    const text = await readVerified(this.port, JSON.parse(uri.query) as SkillDocumentTarget);
    this.texts.set(uri.toString(), text);
    return text;
  }
}

let documents: SkillDocuments | undefined;

/** Opens one file of a skill read-only; a file failing verification is not opened, and the user is told why. */
export async function openSkillFile(port: SessionPort, serverId: string, skillUri: string, fileUri: string | undefined): Promise<void> {
  if (!documents) {
    documents = new SkillDocuments(port);
    vscode.workspace.registerTextDocumentContentProvider(SKILL_SCHEME, documents);
  }
  const target = { serverId, skillUri, fileUri: fileUri ?? skillUri };
  const info = port.servers().find((s) => s.id === serverId);
  const skill = info?.features.skills?.find((s) => s.uri === skillUri);
  let text: string;
  try {
    text = await readVerified(port, target);
  } catch (e) {
    void vscode.window.showErrorMessage(`MCP Host: the skill file was not opened: ${plainText((e as Error).message)}`);
    return;
  }
  const uri = documents.uriOf(target, info?.name ?? 'server', skill ? skillFilePath(skill, target.fileUri) : 'file');
  documents.remember(uri, text);
  const document = await vscode.workspace.openTextDocument(uri);
  if (/\.md$/i.test(uri.path)) await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  await vscode.window.showTextDocument(document, { preview: true });
}

/** A skill command's `(serverId, skillUri, fileUri)`: given as such, or carried by a Servers view row's click. */
function skillCommandArgs(args: unknown[]): unknown[] {
  const row = (args[0] as { row?: { command?: { arguments?: unknown[] } } } | undefined)?.row;
  return row ? (row.command?.arguments ?? []) : args;
}

/**
 * The command's arguments: a row of the Servers view (a RowNode, whose click carries them), or
 * `(serverId, skillUri, fileUri)`. Without either (the palette hides the command) there is nothing to open.
 */
export function openSkillFileCommand(port: SessionPort, args: unknown[]): Promise<void> | undefined {
  const [serverId, skillUri, fileUri] = skillCommandArgs(args);
  if (typeof serverId !== 'string' || typeof skillUri !== 'string') return undefined;
  return openSkillFile(port, serverId, skillUri, typeof fileUri === 'string' ? fileUri : undefined);
}

/**
 * "Attach Skill to Chat": the skill's SKILL.md, read and verified as when it is opened, goes with the next `@mcp`
 * request as context (as an attached resource does), and the chat opens with `@mcp`. A file failing verification is
 * not attached, and the user is told why. Arguments: a skill's row of the Servers view, or `(serverId, skillUri)`.
 */
export async function attachSkillCommand(port: SessionPort, attachments: ChatAttachments, args: unknown[]): Promise<void> {
  const [serverId, skillUri] = skillCommandArgs(args);
  if (typeof serverId !== 'string' || typeof skillUri !== 'string') return;
  const info = port.servers().find((s) => s.id === serverId);
  const skill = info?.features.skills?.find((s) => s.uri === skillUri);
  let text: string;
  try {
    text = await readVerified(port, { serverId, skillUri, fileUri: skillUri });
  } catch (e) {
    void vscode.window.showErrorMessage(`MCP Host: the skill was not attached: ${plainText((e as Error).message)}`);
    return;
  }
  const label = `skill ${skill?.frontmatter.name ?? skillUri}`;
  attachments.add({ serverId, serverName: info?.name ?? serverId, uri: skillUri, label, contents: [{ uri: skillUri, mimeType: 'text/markdown', text }] });
  vscode.window.setStatusBarMessage(`Attached ${labelText(label)}: it goes with your next @mcp request`, 5000);
  try {
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp ', isPartialQuery: true });
  } catch {
    void vscode.window.showInformationMessage(`Attached "${plainText(label)}": it goes with your next @mcp request in chat.`);
  }
}
