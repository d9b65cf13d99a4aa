// A form as a native multi-step quick input with Back: one step per field (an input box for text and numbers, a
// quick pick for yes/no and choices), then a review of every answer before anything is sent. Escape cancels; the
// explicit Decline item (or button) declines: servers are told which one it was. What the server wrote (titles,
// descriptions, choices) goes through serverText: prompts and items render `$(icon)`, and prompts links.
import vscode = require('vscode');
import { defaultsOf, describeConstraints, describeValue, validateField, validateValue } from '../../core/features/elicitation/formModel.lazy';
import { type FormField, type FormModel, type FormOutcome } from '../../core/features/elicitation/form';
import { labelText, plainText } from '../../core/presentation/serverText';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { fieldLabel } from '../../core/presentation/formText';

export type { FormOutcome };

export interface QuickInputFormOptions {
  /** What is asked, e.g. the server's elicitation message or `Call tool "get-sum"`. */
  title: string;
  serverName: string;
  dialogs: HostDialogs;
  /** Show a final step listing every answer before accepting. */
  review: boolean;
  /** Closes the form as cancelled, e.g. when the server gave up on its request. */
  signal?: AbortSignal;
  /** The review step also offers to decline and never be asked again by this server (outcome `always: true`). */
  offerDeclineAlways?: boolean;
  /**
   * A form the user fills in to run something of their own accord (a tool call), not a server's question: the title
   * is `options.title` alone, there is nothing to decline (Escape cancels), and the review's first item runs it.
   */
  run?: { label: string; description: string; detail?: string };
  /** Values to start from instead of the schema's defaults (e.g. the arguments of an earlier call). */
  initialValues?: Record<string, unknown>;
}

type StepResult<T> = { kind: 'answer'; value: T } | { kind: 'back' } | { kind: 'decline'; always?: boolean } | { kind: 'cancel' };

const DECLINE_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('circle-slash'),
  tooltip: 'Decline: tell the server you will not answer',
};

const SECRET_WARNING =
  'This looks like a request for a password, token or key. MCP servers must not ask for secrets here: only continue if you are sure.';

interface Item extends vscode.QuickPickItem {
  action?: 'decline' | 'decline-always' | 'submit' | 'unset';
  value?: unknown;
  fieldIndex?: number;
}

const separator = (label = ''): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });

/** A choice the server offers: its label, and its value when that differs. */
const choiceItem = (o: { value: string; label: string }): Item => ({
  label: labelText(o.label),
  description: o.label !== o.value ? labelText(o.value) : undefined,
  value: o.value,
});

const declineItem: Item = { label: '$(circle-slash) Decline', description: 'tell the server you will not answer', action: 'decline' };

export async function runQuickInputForm(form: FormModel, options: QuickInputFormOptions): Promise<FormOutcome> {
  const fields = form.fields;
  const values: Record<string, unknown> = { ...defaultsOf(form), ...options.initialValues };
  const visited = new Set<number>();
  const totalSteps = fields.length + (options.review ? 1 : 0);
  const title = plainText(options.run ? options.title : `MCP server "${options.serverName}": ${options.title}`);
  const declinable = !options.run;
  let index = 0;
  let backToReview = false;
  for (;;) {
    if (options.signal?.aborted) return { action: 'cancel' };
    if (index < fields.length) {
      const field = fields[index];
      if (!visited.has(index)) {
        visited.add(index);
        const preset = options.dialogs.formFieldPreset?.({ serverName: options.serverName, field });
        const checked = preset === undefined ? undefined : validateField(field, preset);
        if (checked?.ok) values[field.name] = checked.value;
      }
      const step = { title, step: index + 1, totalSteps, canGoBack: index > 0, declinable, signal: options.signal };
      const result = await askField(field, values[field.name], step);
      if (result.kind === 'decline' || result.kind === 'cancel') return { action: result.kind };
      if (result.kind === 'back') {
        // Back from a field changed from the review returns to the review.
        index = backToReview ? fields.length : index - 1;
        continue;
      }
      if (result.value === undefined) delete values[field.name];
      else values[field.name] = result.value;
      index = backToReview ? fields.length : index + 1;
      continue;
    }
    if (!options.review) return { action: 'accept', values: answersOf(fields, values) };
    const result = await askReview(fields, values, {
      title,
      step: totalSteps,
      totalSteps,
      canGoBack: fields.length > 0,
      declinable,
      signal: options.signal,
      serverName: options.serverName,
      offerDeclineAlways: options.offerDeclineAlways ?? false,
      run: options.run,
    });
    if (result.kind === 'decline') return result.always ? { action: 'decline', always: true } : { action: 'decline' };
    if (result.kind === 'cancel') return { action: 'cancel' };
    if (result.kind === 'back') {
      index = fields.length - 1;
      backToReview = false;
      continue;
    }
    if (result.value === 'submit') return { action: 'accept', values: answersOf(fields, values) };
    index = result.value;
    backToReview = true;
  }
}

/** The answers of the form's own fields, each valid (the steps only accept valid answers; defaults are checked). */
function answersOf(fields: FormField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (values[f.name] !== undefined && validateValue(f, values[f.name]).ok) out[f.name] = values[f.name];
  return out;
}

interface StepOptions {
  title: string;
  step: number;
  totalSteps: number;
  canGoBack: boolean;
  /** A server's question can be declined; a form of the user's own (a tool call) only cancelled. */
  declinable: boolean;
  signal?: AbortSignal;
}

/** Shows one quick input and settles exactly once: on accept (via `onAccept`), a button, or when it is hidden. */
function runStep<T, Q extends vscode.QuickPick<Item> | vscode.InputBox>(
  input: Q,
  step: StepOptions,
  onAccept: (input: Q, settle: (r: StepResult<T>) => void) => void,
): Promise<StepResult<T>> {
  input.title = step.title;
  input.step = step.step;
  input.totalSteps = step.totalSteps;
  input.ignoreFocusOut = true;
  input.buttons = [...(step.canGoBack ? [vscode.QuickInputButtons.Back] : []), ...(step.declinable ? [DECLINE_BUTTON] : [])];
  return new Promise<StepResult<T>>((resolve) => {
    let settled = false;
    const disposables: vscode.Disposable[] = [];
    const settle = (r: StepResult<T>) => {
      if (settled) return;
      settled = true;
      for (const d of disposables) d.dispose();
      input.dispose();
      resolve(r);
    };
    const onAbort = () => settle({ kind: 'cancel' });
    step.signal?.addEventListener('abort', onAbort);
    disposables.push(
      { dispose: () => step.signal?.removeEventListener('abort', onAbort) },
      (input.onDidTriggerButton as vscode.Event<vscode.QuickInputButton>)((b) =>
        settle(b === vscode.QuickInputButtons.Back ? { kind: 'back' } : { kind: 'decline' }),
      ),
      input.onDidAccept(() => onAccept(input, settle)),
      input.onDidHide(() => settle({ kind: 'cancel' })),
    );
    input.show();
  });
}

function askField(field: FormField, current: unknown, step: StepOptions): Promise<StepResult<unknown>> {
  switch (field.kind) {
    case 'string':
    case 'number':
    case 'integer':
      return askText(field, current, step);
    case 'multi-enum':
      return askMany(field, current, step);
    default:
      return askOne(field, current, step);
  }
}

function askText(field: FormField, current: unknown, step: StepOptions): Promise<StepResult<unknown>> {
  const box = vscode.window.createInputBox();
  box.value = current === undefined ? '' : String(current);
  box.prompt = labelText([fieldLabel(field), field.description, `(${describeConstraints(field)})`].filter(Boolean).join(' — '));
  box.placeholder = plainText(field.required ? `${field.title} (required)` : `${field.title} (optional: leave empty to skip)`);
  box.password = field.secretLike;
  const idle: vscode.InputBox['validationMessage'] = field.secretLike
    ? { message: SECRET_WARNING, severity: vscode.InputBoxValidationSeverity.Warning }
    : undefined;
  box.validationMessage = idle;
  box.onDidChangeValue((text) => {
    const checked = validateField(field, text);
    box.validationMessage = checked.ok ? idle : labelText(checked.message);
  });
  return runStep<unknown, vscode.InputBox>(box, step, (b, settle) => {
    const checked = validateField(field, b.value);
    if (checked.ok) settle({ kind: 'answer', value: checked.value });
    else b.validationMessage = labelText(checked.message);
  });
}

/** Yes/no and single choices: a quick pick whose active item is the current answer (the default, at first). */
function askOne(field: FormField, current: unknown, step: StepOptions): Promise<StepResult<unknown>> {
  const pick = vscode.window.createQuickPick<Item>();
  const choices: Item[] =
    field.kind === 'boolean'
      ? [
          { label: 'Yes', value: true },
          { label: 'No', value: false },
        ]
      : (field.options ?? []).map(choiceItem);
  const unset: Item[] = field.required ? [] : [{ label: '$(dash) No answer', description: 'leave this optional field empty', action: 'unset' }];
  pick.items = [...choices, ...unset, ...(step.declinable ? [separator(), declineItem] : [])];
  const active = choices.find((c) => c.value === current) ?? (current === undefined && unset.length ? unset[0] : choices[0]);
  pick.activeItems = active ? [active] : [];
  pick.matchOnDescription = true;
  pick.placeholder = plainText([fieldLabel(field), field.description, field.secretLike ? `⚠ ${SECRET_WARNING}` : ''].filter(Boolean).join(' — '));
  return runStep<unknown, vscode.QuickPick<Item>>(pick, step, (p, settle) => {
    const item = p.selectedItems[0] ?? p.activeItems[0];
    if (!item) return;
    if (item.action === 'decline') settle({ kind: 'decline' });
    else if (item.action === 'unset') settle({ kind: 'answer', value: undefined });
    else settle({ kind: 'answer', value: item.value });
  });
}

/** Multiple choices: checkboxes, pre-selected with the current answer; item counts are checked on accept. */
function askMany(field: FormField, current: unknown, step: StepOptions): Promise<StepResult<unknown>> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.canSelectMany = true;
  const items: Item[] = (field.options ?? []).map(choiceItem);
  pick.items = items;
  const selected = Array.isArray(current) ? current : [];
  pick.selectedItems = items.filter((i) => selected.includes(i.value));
  pick.matchOnDescription = true;
  const hint = plainText([fieldLabel(field), field.description, `(${describeConstraints(field)})`].filter(Boolean).join(' — '));
  pick.placeholder = hint;
  return runStep<unknown, vscode.QuickPick<Item>>(pick, step, (p, settle) => {
    const checked = validateField(field, p.selectedItems.map((i) => i.value as string));
    if (checked.ok) settle({ kind: 'answer', value: checked.value });
    // A quick pick has no validation message: the placeholder says what is wrong.
    else p.placeholder = `⚠ ${plainText(checked.message)} ${hint}`;
  });
}

function askReview(
  fields: FormField[],
  values: Record<string, unknown>,
  step: StepOptions & { serverName: string; offerDeclineAlways: boolean; run?: QuickInputFormOptions['run'] },
): Promise<StepResult<'submit' | number>> {
  const pick = vscode.window.createQuickPick<Item>();
  const answers: Item[] = fields.map((f, i) => ({
    label: labelText(fieldLabel(f)),
    description: f.secretLike && values[f.name] !== undefined ? '••••••' : labelText(describeValue(f, values[f.name])),
    detail: f.secretLike ? `$(warning) ${SECRET_WARNING}` : undefined,
    fieldIndex: i,
  }));
  const submit: Item = step.run
    ? { label: `$(play) ${labelText(step.run.label)}`, description: labelText(step.run.description), detail: step.run.detail && labelText(step.run.detail), action: 'submit' }
    : { label: '$(check) Submit', description: `send these answers to "${labelText(step.serverName)}"`, action: 'submit' };
  const declineAlways: Item[] = step.offerDeclineAlways
    ? [{ label: '$(circle-slash) Decline and Stop Asking', description: `decline every request from "${labelText(step.serverName)}" from now on`, action: 'decline-always' }]
    : [];
  pick.items = [
    submit,
    ...(answers.length ? [separator(step.run ? 'Arguments (pick one to change it)' : 'Your answers (pick one to change it)'), ...answers] : []),
    ...(step.declinable ? [separator(), declineItem, ...declineAlways] : []),
  ];
  pick.activeItems = [submit];
  pick.placeholder = step.run
    ? `Check what "${plainText(step.serverName)}" will receive: ${plainText(step.run.label)} sends it, Escape cancels.`
    : `Review what "${plainText(step.serverName)}" will receive: Submit sends it, Decline refuses, Escape cancels.`;
  return runStep<'submit' | number, vscode.QuickPick<Item>>(pick, step, (p, settle) => {
    const item = p.selectedItems[0] ?? p.activeItems[0];
    if (!item) return;
    if (item.action === 'decline') settle({ kind: 'decline' });
    else if (item.action === 'decline-always') settle({ kind: 'decline', always: true });
    else if (item.action === 'submit') settle({ kind: 'answer', value: 'submit' });
    else if (item.fieldIndex !== undefined) settle({ kind: 'answer', value: item.fieldIndex });
  });
}
