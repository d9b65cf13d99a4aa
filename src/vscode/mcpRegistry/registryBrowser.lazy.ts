// "MCP: Add Server from Registry…": search an MCP registry in a quick pick (results paged), see what a server would run
// and which values it asks for, then install it in a workspace folder's .mcp.json or .vscode/mcp.json, or the user's
// ~/.copilot/mcp-config.json or mcp.json (../config/writeTargets.lazy.ts: the last choice first; an edit that keeps
// comments). Required values are asked now, secrets once, into secret storage, as inputs.
// Registry text is server text: it reaches the pick only as label text. Loaded on demand, when first used.
import vscode = require('vscode');
import { labelText, plainText, truncate } from '../../core/presentation/serverText';
import { RegistryClient, RegistryError } from '../../core/features/mcpRegistry/registryClient';
import { describeEntry } from '../../core/features/mcpRegistry/describeEntry';
import type { RegistryServer } from '../../core/features/mcpRegistry/registryServer';
import { answerQuestions, installOptions, MappingError, planInstall, type InstallPlan } from '../../core/features/mcpRegistry/serverJsonMapping';
import { onlyVsCodeFormat, orderTargets, rememberTarget, targetItem, writeTargets } from '../config/writeTargets.lazy';
import { migrateConfiguration } from '../config/migrateConfiguration.lazy';
import { importServers, type ImportResult } from './importServers.lazy';
import { askValue, writeInstall } from './registryWrite.lazy';
import { registryOrigins } from '../../core/features/mcpRegistry/registryOrigins';
import { registryFailureRows } from '../../core/presentation/registryFailure';
import { placeholderText } from '../../core/presentation/fittedText';
import { logRegistryFailure, openFailureAction } from './registryFailure.lazy';
import { PAGE_SIZE, registryUrl, SEARCH_DEBOUNCE_MS, serverSummary, type Item, type RegistryUpdate } from './registryPick.lazy';
import type { MigrationResult, RegistryBrowser as RegistryBrowserContract, RegistryBrowserDeps, RegistryInstallResult, RegistryPickState } from './registerRegistryCommands';

export class RegistryBrowser implements RegistryBrowserContract {
  state: RegistryPickState | undefined;

  constructor(
    private readonly deps: RegistryBrowserDeps,
    private readonly baseUrl: () => string = registryUrl,
  ) {}

  private track(pick: vscode.QuickPick<Item>, step: RegistryPickState['step']): void {
    const show = (i: Item) => [i.label, i.description, i.detail].filter(Boolean).join(' — ');
    const state: RegistryPickState = {
      step,
      get title() {
        return pick.title ?? '';
      },
      get value() {
        return pick.value;
      },
      get busy() {
        return pick.busy;
      },
      get items() {
        return pick.items.map(show);
      },
      get active() {
        return pick.activeItems[0] && show(pick.activeItems[0]);
      },
      get placeholder() {
        return pick.placeholder ?? '';
      },
      get selected() {
        return pick.selectedItems.map(show);
      },
      setValue: (value) => (pick.value = value),
    };
    this.state = state;
    pick.onDidHide(() => {
      if (this.state === state) this.state = undefined;
    });
  }

  /** The client of the configured registry; undefined (and said why) when the setting is not a registry URL. */
  private client(): RegistryClient | undefined {
    try {
      return new RegistryClient(this.baseUrl());
    } catch (e) {
      void vscode.window.showErrorMessage(`MCP Host: ${plainText((e as Error).message)} Check the setting mcpHost.registry.url.`);
      return undefined;
    }
  }

  /** The whole flow; resolves with what was written, or undefined when the user stopped (or it could not be done). */
  async addFromRegistry(): Promise<RegistryInstallResult | undefined> {
    const client = this.client();
    if (!client) return undefined;
    const found = await this.search(client);
    if (!found) return undefined;
    return this.install(found.client, found.server);
  }

  /**
   * "MCP: Update Servers from Registry…": the servers of this workspace's and the user's mcp.json that came from the
   * configured registry (their `gallery` and `version`), each asked for its latest version; a newer one is offered,
   * shown with what it runs, and replaces the entry where it is.
   */
  async updateServers(): Promise<RegistryInstallResult | undefined> {
    const client = this.client();
    if (!client) return undefined;
    const files = writeTargets(this.deps.configLoader.userConfigUri);
    let checked = 0;
    const updates: Item[] = [];
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking for newer versions on ${client.baseUrl}…` }, async () => {
        for (const target of files) {
          let text: string;
          try {
            text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target.uri));
          } catch {
            continue;
          }
          for (const origin of registryOrigins(text, client.baseUrl)) {
            checked++;
            const latest = await client.latest(origin.name);
            if (!latest.ok || latest.server.version === origin.version) continue;
            const update: RegistryUpdate = { server: latest.server, from: origin.version, target, key: origin.name };
            updates.push({ label: labelText(truncate(origin.name, 200)), description: labelText(truncate(`${origin.version} → ${latest.server.version}`, 100)), detail: vscode.workspace.asRelativePath(target.uri), update });
          }
        }
      });
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      logRegistryFailure(e);
      void vscode.window.showErrorMessage(`MCP Host: ${plainText(truncate(e.message, 300))}`, 'Open Settings', 'Show Log').then((choice) => {
        if (choice) void openFailureAction(choice === 'Show Log' ? 'showLog' : 'registrySetting');
      });
      return undefined;
    }
    if (!updates.length) {
      void vscode.window.showInformationMessage(
        checked ? `MCP Host: the ${checked === 1 ? 'server' : `${checked} servers`} installed from ${client.baseUrl} ${checked === 1 ? 'is' : 'are'} up to date.` : `MCP Host: no server in your mcp.json files was installed from ${client.baseUrl}.`,
      );
      return undefined;
    }
    const picked = (await this.pickOne('update', `Update MCP Servers from ${client.baseUrl}`, updates, 'Update which server?'))?.update;
    return picked && this.install(client, picked.server, picked);
  }

  /** The server chosen, and the client of the registry it came from (Retry reads the registry's address again). */
  private search(client: RegistryClient): Promise<{ server: RegistryServer; client: RegistryClient } | undefined> {
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = `Add MCP Server from ${client.baseUrl}`;
    pick.placeholder = 'Search the MCP registry by name or description';
    pick.matchOnDescription = false;
    pick.ignoreFocusOut = true;
    this.track(pick, 'search');
    let query = '';
    let cursor: string | undefined;
    let generation = 0;
    let abort: AbortController | undefined;
    let timer: NodeJS.Timeout | undefined;

    const load = async (append: boolean) => {
      const mine = ++generation;
      abort?.abort();
      abort = new AbortController();
      pick.busy = true;
      try {
        const page = await client.search(query, { cursor: append ? cursor : undefined, limit: PAGE_SIZE, signal: abort.signal });
        if (mine !== generation) return;
        cursor = page.nextCursor;
        const items = page.entries.map((entry): Item => {
          // Registry items come back from a search already matched: VS Code must not filter them again.
          if (!entry.ok) return { label: `$(warning) ${labelText(truncate(entry.name ?? 'An entry', 200))}`, description: 'cannot be installed', detail: labelText(truncate(entry.reason, 300)), alwaysShow: true, entry };
          const s = entry.server;
          return { label: labelText(truncate(s.name, 200)), description: labelText(truncate(`${s.version}${s.title ? ` · ${s.title}` : ''}`, 120)), detail: labelText(truncate(serverSummary(s), 400)), alwaysShow: true, entry };
        });
        const before = append ? pick.items.filter((i) => !i.more) : [];
        const more: Item[] = cursor ? [{ label: '$(more) Load more results…', alwaysShow: true, more: true }] : [];
        const empty: Item[] = !before.length && !items.length ? [{ label: `No server matches "${labelText(truncate(query, 100))}"`, alwaysShow: true }] : [];
        pick.items = [...before, ...items, ...more, ...empty];
        if (append && items.length) pick.activeItems = [pick.items[before.length]];
      } catch (e) {
        if (mine !== generation || abort.signal.aborted) return;
        if (!(e instanceof RegistryError)) throw e;
        // The registry is down, unreachable or answering garbage: said in words, with the ways on (retry, settings, log).
        logRegistryFailure(e);
        pick.items = registryFailureRows(e.message, e.unreachable, e.reason).map((row) => ({ ...row, alwaysShow: true }));
      } finally {
        if (mine === generation) pick.busy = false;
      }
    };

    return new Promise((resolve) => {
      pick.onDidChangeValue((value) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          query = value;
          void load(false);
        }, SEARCH_DEBOUNCE_MS);
      });
      pick.onDidAccept(() => {
        const item = pick.activeItems[0];
        if (item?.more) return void load(true);
        if (item?.action === 'retry') {
          // The address may just have been changed in the settings.
          client = this.client() ?? client;
          pick.title = `Add MCP Server from ${client.baseUrl}`;
          return void load(false);
        }
        if (item?.action) return void openFailureAction(item.action);
        if (!item?.entry) return;
        if (!item.entry.ok) {
          void vscode.window.showErrorMessage(`MCP Host: ${plainText(truncate(item.entry.name ?? 'This entry', 200))} cannot be installed: ${plainText(truncate(item.entry.reason, 300))}`);
          return;
        }
        resolve({ server: item.entry.server, client });
        pick.hide();
      });
      pick.onDidHide(() => {
        clearTimeout(timer);
        abort?.abort();
        resolve(undefined);
        pick.dispose();
      });
      pick.show();
      void load(false);
    });
  }

  /** One item of a pick (tests see it as `state`). */
  pickOne(step: RegistryPickState['step'], title: string, items: Item[], placeholder: string): Promise<Item | undefined> {
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = title;
    pick.placeholder = truncate(plainText(placeholder), 500);
    pick.items = items;
    pick.ignoreFocusOut = true;
    this.track(pick, step);
    return new Promise((resolve) => {
      pick.onDidAccept(() => {
        resolve(pick.activeItems[0]);
        pick.hide();
      });
      pick.onDidHide(() => {
        resolve(undefined);
        pick.dispose();
      });
      pick.show();
    });
  }

  private async install(client: RegistryClient, server: RegistryServer, update?: RegistryUpdate): Promise<RegistryInstallResult | undefined> {
    const name = plainText(truncate(server.name, 200));
    const title = labelText(truncate(`${server.name} ${server.version}`, 200));
    const options = installOptions(server);
    const supported = options.filter((o) => !o.unsupported);
    if (!supported.length) {
      void vscode.window.showErrorMessage(`MCP Host: ${name} cannot be installed: ${plainText(truncate(options.map((o) => o.unsupported).join('; '), 300))}`);
      return undefined;
    }
    let option = supported[0];
    if (supported.length > 1) {
      const picked = await this.pickOne('option', title, supported.map((o) => ({ label: labelText(truncate(o.label, 300)), option: o })), 'Run it how?');
      if (!picked?.option) return undefined;
      option = picked.option;
    }
    let plan: InstallPlan;
    try {
      plan = planInstall(server, client.baseUrl, option);
    } catch (e) {
      if (!(e instanceof MappingError)) throw e;
      void vscode.window.showErrorMessage(`MCP Host: ${name} cannot be installed: ${plainText(truncate(e.message, 300))}`);
      return undefined;
    }

    const runs = describeEntry(plan.entry).split('\n').join(' · ');
    const asks = plan.inputs.map((i) => `${i.id}${i.type === 'promptString' && i.password ? ' (secret)' : ''}`);
    const detail = labelText(truncate(`${runs}${asks.length ? ` · asks: ${asks.join(', ')}` : ''}${plan.leftOut.length ? ` · optional, not set: ${plan.leftOut.join(', ')}` : ''}`, 600));
    // An update replaces the entry where it is: what the new version runs is shown, and confirmed, all the same.
    // Secrets stay inputs, which only VS Code's format holds: such a server is not offered the mcpServers files.
    const secrets = plan.inputs.filter((i) => !plan.questions.includes(i.id)).map((i) => i.id);
    const targets = update
      ? [{ label: `Update from ${labelText(truncate(update.from, 40))} to ${labelText(truncate(server.version, 40))}`, description: update.target.where, detail, target: update.target }]
      : this.targets('Install', detail, secrets);
    const chosen = (await this.pickOne('target', title, targets, update ? 'Update it?' : `Install where?${onlyVsCodeFormat(secrets)}`))?.target;
    if (!chosen) return undefined;
    if (!update) void rememberTarget(this.deps.state, chosen);

    // Required values are asked now and written in; unanswered ones stay inputs, asked at the first start.
    const answers = new Map<string, string>();
    for (const id of plan.questions) {
      const input = plan.inputs.find((i) => i.id === id)!;
      const answer = await askValue(this.deps.dialogs, server.name, input);
      if (answer) answers.set(id, answer);
    }
    plan = answerQuestions(plan, answers);
    return writeInstall(this.deps, plan, chosen, update?.key);
  }

  /**
   * Each workspace folder's .mcp.json and .vscode/mcp.json, and the user's ~/.copilot/mcp-config.json and mcp.json:
   * the last choice first. With inputs (`needsInputs`), only the files of VS Code's format, which can hold them.
   */
  targets(verb: string, detail: string | undefined, needsInputs: string[]): Item[] {
    const folders = vscode.workspace.workspaceFolders?.length ?? 0;
    const all = orderTargets(writeTargets(this.deps.configLoader.userConfigUri), this.deps.state);
    return all.filter((t) => !needsInputs.length || t.format === 'vscode').map((target) => ({ ...labelled(targetItem(verb, target, folders)), detail, target }));
  }

  /** "MCP Host: Import Servers…" (./importServers.lazy.ts), through this browser's picks. */
  importServers(): Promise<ImportResult | undefined> {
    return importServers(this.deps, this);
  }

  /** "MCP Host: Migrate Configuration…" (../config/migrateConfiguration.lazy.ts), through this browser's picks. */
  migrateConfiguration(): Promise<MigrationResult | undefined> {
    return migrateConfiguration(this.deps, this);
  }

  /** Several items of a pick, checked (tests see it as `state`). */
  pickMany(step: RegistryPickState['step'], title: string, items: Item[], placeholder: string): Promise<readonly Item[] | undefined> {
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = title;
    pick.placeholder = placeholderText(placeholder);
    pick.items = items;
    pick.canSelectMany = true;
    // A created pick ignores `picked`: the items checked at first are set here.
    pick.selectedItems = items.filter((i) => i.picked);
    pick.ignoreFocusOut = true;
    this.track(pick, step);
    return new Promise((resolve) => {
      pick.onDidAccept(() => {
        resolve(pick.selectedItems);
        pick.hide();
      });
      pick.onDidHide(() => {
        resolve(undefined);
        pick.dispose();
      });
      pick.show();
    });
  }
}

const labelled = (item: { label: string; description: string }) => ({ label: labelText(item.label), description: labelText(item.description) });
