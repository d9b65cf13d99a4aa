// Fills in a resource template: one quick pick per variable, suggestions from the server's completions (asked again,
// debounced, as the user types), what was typed always available, and Back to change an earlier answer. Loaded on
// demand: completions come from a running server.
import vscode = require('vscode');
import { debounceLatest, type Completer } from '../../core/features/resources/templateCompleter';
import { ResourceTemplateForm } from '../../core/features/resources/resourceTemplateForm.lazy';
import type { ResourceTemplate } from '../../core/host/serverInfo';
import { labelText, plainText } from '../../core/presentation/serverText';
import { replaceItems } from '../dialogs/quickPickItems';
import { resourceLabel } from '../../core/presentation/serverPresentation';
import type { TemplatePickState } from './registerResources';

/** Waiting this long after the last keystroke before asking the server keeps one request per pause in typing. */
const COMPLETION_DEBOUNCE_MS = 200;

interface ValueItem extends vscode.QuickPickItem {
  value: string;
}

const BACK = Symbol('back');

export class TemplatePicker {
  private _state: TemplatePickState | undefined;

  get state(): TemplatePickState | undefined {
    return this._state;
  }

  /** The values of every variable, or undefined when the user cancelled. */
  async fill(template: ResourceTemplate, complete: Completer): Promise<{ uri: string; values: Record<string, string> } | undefined> {
    const form = new ResourceTemplateForm(template);
    const variables = form.variables;
    const values: Record<string, string> = {};
    for (let i = 0; i < variables.length; ) {
      const filled = Object.fromEntries(variables.slice(0, i).map((v) => [v, values[v]]));
      const answer = await this.ask(template, variables, i, values[variables[i]] ?? '', (value) => complete(variables[i], value, filled));
      if (answer === undefined) return undefined;
      if (answer === BACK) {
        i--;
        continue;
      }
      values[variables[i]] = answer;
      i++;
    }
    return { uri: form.expand(values), values };
  }

  private ask(
    template: ResourceTemplate,
    variables: string[],
    index: number,
    initial: string,
    complete: (value: string) => Promise<string[]>,
  ): Promise<string | typeof BACK | undefined> {
    const variable = variables[index];
    const pick = vscode.window.createQuickPick<ValueItem>();
    pick.title = plainText(`${resourceLabel(template)}: ${variable}`);
    pick.step = index + 1;
    pick.totalSteps = variables.length;
    pick.placeholder = plainText(`Value of {${variable}} in ${template.uriTemplate}`);
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = false;
    pick.value = initial;
    if (index > 0) pick.buttons = [vscode.QuickInputButtons.Back];
    const state: TemplatePickState = { title: pick.title, variable, items: [], active: undefined, busy: false };
    this._state = state;

    let suggestions: string[] = [];
    const render = () => {
      const typed = pick.value;
      // Suggestions first (Enter takes the best one), then what was typed, as typed.
      const items: ValueItem[] = suggestions.map((s) => ({ label: labelText(s), value: s, alwaysShow: true }));
      if (typed && !suggestions.includes(typed)) items.push({ label: labelText(typed), value: typed, description: 'as typed', alwaysShow: true });
      replaceItems(pick, items, (i) => `${i.value}\n${i.description ?? ''}`);
      state.items = items.map((i) => i.label);
    };
    const debounced = debounceLatest(complete, COMPLETION_DEBOUNCE_MS);
    const refresh = async (value: string) => {
      pick.busy = state.busy = true;
      const result = await debounced(value).catch(() => []);
      // Undefined: a newer keystroke superseded this request; its own answer will come.
      if (result === undefined) return;
      suggestions = result;
      pick.busy = state.busy = false;
      render();
    };

    return new Promise((resolve) => {
      let settled = false;
      const finish = (answer: string | typeof BACK | undefined) => {
        if (settled) return;
        settled = true;
        debounced.cancel();
        if (this._state === state) this._state = undefined;
        resolve(answer);
        pick.dispose();
      };
      pick.onDidChangeActive((active) => (state.active = active[0]?.value));
      pick.onDidChangeValue((value) => {
        render();
        void refresh(value);
      });
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0]?.value ?? pick.activeItems[0]?.value ?? pick.value;
        // An empty value would give a URI with a hole in it: wait for one.
        if (chosen) finish(chosen);
      });
      pick.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && finish(BACK));
      pick.onDidHide(() => finish(undefined));
      render();
      pick.show();
      void refresh(initial);
    });
  }
}
