// Chooses a prompt and collects its arguments: one quick pick per argument, with Back, the server's suggestions
// (completion/complete, debounced, earlier answers as context), and the editor's selection or file as candidates.
import vscode = require('vscode');
import type { PromptArgument } from '@modelcontextprotocol/client';
import { listPrompts, type PromptEntry } from '../../core/features/prompts/promptCatalog';
import { completePromptArgument } from '../../core/features/prompts/promptRequests.lazy';
import type { SessionPort } from '../../core/host/serverSession';
import { labelText, plainText, truncate } from '../../core/presentation/serverText';
import { replaceItems } from '../dialogs/quickPickItems';
import type { ArgumentPickState } from '../publicApi';
import { placeholderText } from '../../core/presentation/fittedText';

const COMPLETION_DEBOUNCE_MS = 150;
const LEAVE_EMPTY = Symbol('leave empty');

interface ValueItem extends vscode.QuickPickItem {
  value: string | typeof LEAVE_EMPTY;
}

export interface ArgumentRequest {
  entry: PromptEntry;
  /** Values already given (kept, and sent as completion context). */
  values: Record<string, string>;
  /** The arguments to ask for, in order. Optional ones can be left empty. */
  ask: PromptArgument[];
  /** Aborting closes the pick (the chat request was cancelled). */
  signal?: AbortSignal;
}

export class PromptArgumentPicker {
  private current: ArgumentPickState | undefined;

  constructor(private readonly sessions: SessionPort) {}

  get activePick(): ArgumentPickState | undefined {
    return this.current;
  }

  /** A quick pick of every prompt of every running server. */
  async pickPrompt(placeHolder = 'Run which MCP prompt?'): Promise<PromptEntry | undefined> {
    const entries = listPrompts(this.sessions.servers());
    if (!entries.length) {
      void vscode.window.showInformationMessage('No running MCP server offers prompts.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      entries.map((entry) => ({
        label: labelText(entry.prompt.title ?? entry.prompt.name),
        description: labelText(
          entry.prompt.title && entry.prompt.title !== entry.prompt.name ? `${entry.serverName} · ${entry.prompt.name}` : entry.serverName,
        ),
        detail: entry.prompt.description && labelText(entry.prompt.description),
        entry,
      })),
      { placeHolder, matchOnDescription: true, matchOnDetail: true },
    );
    return picked?.entry;
  }

  /** Every value, or undefined when the user cancelled. */
  async collect(request: ArgumentRequest): Promise<Record<string, string> | undefined> {
    const values = { ...request.values };
    const { ask } = request;
    let i = 0;
    while (i < ask.length) {
      if (request.signal?.aborted) return undefined;
      const answer = await this.pickOne(request.entry, ask[i], values, i, ask.length, request.signal);
      if (answer === undefined) return undefined;
      if (answer === 'back') {
        i = Math.max(0, i - 1);
        continue;
      }
      if (answer.value === LEAVE_EMPTY) delete values[ask[i].name];
      else values[ask[i].name] = answer.value;
      i++;
    }
    return values;
  }

  private pickOne(
    entry: PromptEntry,
    arg: PromptArgument,
    values: Record<string, string>,
    step: number,
    total: number,
    signal: AbortSignal | undefined,
  ): Promise<{ value: string | typeof LEAVE_EMPTY } | 'back' | undefined> {
    const pick = vscode.window.createQuickPick<ValueItem>();
    pick.title = plainText(`${entry.serverName}: ${entry.prompt.title ?? entry.prompt.name} (${step + 1}/${total})`);
    // What fits the quick input's width: a longer placeholder is cut without a word.
    pick.placeholder = placeholderText(`${arg.name} (${arg.required ? 'required' : 'optional'})${arg.description ? ` — ${arg.description}` : ''}`);
    pick.ignoreFocusOut = true;
    // Keep the server's order (best suggestion first) instead of re-sorting by label match, which would put the typed
    // text itself first. Not in the typed API yet, but honoured by VS Code's quick pick.
    (pick as { sortByLabel?: boolean }).sortByLabel = false;
    pick.buttons = step > 0 ? [vscode.QuickInputButtons.Back] : [];
    pick.value = values[arg.name] ?? '';
    const context = Object.fromEntries(Object.entries(values).filter(([k]) => k !== arg.name));
    const fromEditor = editorItems();
    let suggestions: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    let inflight: AbortController | undefined;

    const render = () => {
      const typed = pick.value;
      // The server already filtered its suggestions by what was typed: keep them visible whatever the quick pick's own
      // fuzzy filter thinks.
      const items: ValueItem[] = suggestions.map((s) => ({ label: labelText(s), value: s, alwaysShow: true }));
      if (typed && !suggestions.includes(typed)) items.push({ label: labelText(typed), description: 'as typed', value: typed, alwaysShow: true });
      items.push(...fromEditor);
      if (!arg.required) items.push({ label: '$(circle-slash) Leave empty', value: LEAVE_EMPTY, alwaysShow: true });
      replaceItems(pick, items, (i) => `${String(i.value)}\n${i.description ?? ''}`);
    };

    const complete = (typed: string) => {
      inflight?.abort();
      const controller = (inflight = new AbortController());
      pick.busy = true;
      void completePromptArgument(this.sessions, entry.serverId, entry.prompt.name, { name: arg.name, value: typed }, context, controller.signal)
        .then((s) => {
          if (controller.signal.aborted) return;
          suggestions = s.values;
          render();
        })
        .catch(() => undefined)
        .finally(() => {
          if (inflight === controller) pick.busy = false;
        });
    };

    const onValue = (typed: string) => {
      render();
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => complete(typed), COMPLETION_DEBOUNCE_MS);
    };

    return new Promise((resolve) => {
      let done = false;
      const finish = (result: { value: string | typeof LEAVE_EMPTY } | 'back' | undefined) => {
        if (done) return;
        done = true;
        if (timer) clearTimeout(timer);
        inflight?.abort();
        this.current = undefined;
        for (const d of subscriptions) d.dispose();
        pick.dispose();
        resolve(result);
      };
      const subscriptions = [
        pick.onDidChangeValue(onValue),
        pick.onDidAccept(() => {
          const item = pick.selectedItems[0] ?? pick.activeItems[0];
          const value = item ? item.value : pick.value;
          // A required argument needs a value: Enter on an empty pick says so where the user looks.
          if (value === '' && arg.required) {
            pick.placeholder = plainText(`${arg.name} is required: type a value, or press Escape to cancel`);
            return;
          }
          finish({ value: value === '' ? LEAVE_EMPTY : value });
        }),
        pick.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && finish('back')),
        pick.onDidHide(() => finish(undefined)),
      ];
      const onAbort = () => finish(undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
      subscriptions.push({ dispose: () => signal?.removeEventListener('abort', onAbort) });
      this.current = {
        argument: arg.name,
        get value() {
          return pick.value;
        },
        get items() {
          return pick.items.map((i) => i.label);
        },
        get active() {
          return pick.activeItems[0]?.label;
        },
        get busy() {
          return pick.busy;
        },
        get placeholder() {
          return pick.placeholder;
        },
        setValue: (v) => {
          pick.value = v;
          onValue(v);
        },
      };
      render();
      complete(pick.value);
      pick.show();
    });
  }
}

/** The active editor's selection and file, offered as values (a frequent wish: pass the current file to a prompt). */
function editorItems(): ValueItem[] {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return [];
  const items: ValueItem[] = [];
  const selection = editor.document.getText(editor.selection);
  if (selection) {
    const oneLine = selection.replace(/\s+/g, ' ').trim();
    items.push({ label: '$(selection) Selection', description: truncate(oneLine, 60), value: selection });
  }
  if (editor.document.uri.scheme === 'file') {
    items.push({ label: '$(file) Current file', description: vscode.workspace.asRelativePath(editor.document.uri), value: editor.document.uri.fsPath });
  }
  return items;
}

let shared: PromptArgumentPicker | undefined;

/** The window's one picker: chat and "MCP: Run Prompt…" share it, so one pick is on screen at a time. */
export const promptPicker = (sessions: SessionPort): PromptArgumentPicker => (shared ??= new PromptArgumentPicker(sessions));

/** The argument pick on screen, if any (extension tests). */
export const activeArgumentPick = (): ArgumentPickState | undefined => shared?.activePick;
