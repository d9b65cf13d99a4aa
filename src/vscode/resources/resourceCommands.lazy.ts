// The resource commands' work. Each takes a tree node, `(serverId, uri)`, a resource document's URI (editor menus), or
// nothing: then the active resource editor, else a quick pick over the loaded resources. Loaded on demand, at the
// first use of one (./registerResources registers the commands).
import * as os from 'os';
import vscode = require('vscode');
import { bytesToSave, copyableText, documentFileName, type ResourceContents } from '../../core/features/resources/resourceContents';
import { offersFeatures, type Resource, type ResourceTemplate } from '../../core/host/serverInfo';
import { firstLine, labelText, plainText } from '../../core/presentation/serverText';
import type { EmbeddedResourceLike, ResourceTarget } from './resourceOpening';
import { mimeIcon, resourceLabel } from '../../core/presentation/resourcePresentation';
import { TemplatePicker } from './templatePicker.lazy';
import type { ResourceCommandDeps, ResourceCommands } from './registerResources';
import { CommandIds } from '../../core/common/commandIds';

type Target = ResourceTarget & { label: string };
type TemplateTarget = { serverId: string; template: ResourceTemplate };
type Pickable = { kind: 'resource'; target: Target } | { kind: 'template'; target: TemplateTarget };

/** A row of the Resources view or of the Servers view (../serverNodes) that stands for a resource or a template. */
/** A server's row of the Resources view (its nodes hold the server's listing). */
const isServerNode = (arg: unknown): arg is { serverId: string } =>
  typeof arg === 'object' && arg !== null && 'listing' in arg && typeof (arg as { serverId?: unknown }).serverId === 'string';

const isNode = <K extends 'resource' | 'template'>(arg: unknown, key: K): arg is { serverId: string } & Record<K, K extends 'resource' ? Resource : ResourceTemplate> =>
  typeof (arg as { serverId?: unknown } | undefined)?.serverId === 'string' && typeof (arg as Record<K, unknown>)[key] === 'object';

export function resourceCommands(deps: ResourceCommandDeps): ResourceCommands {
  const { service, opener, files } = deps;
  const picker = new TemplatePicker();

  /** Every loaded resource and template of the running servers, for quick picks. */
  function pickables(withTemplates: boolean): (vscode.QuickPickItem & { item: Pickable })[] {
    return service
      .servers()
      .filter((s) => offersFeatures(s.state))
      .flatMap((s) => [
        ...s.features.resources.map((r) => ({
          label: `$(${mimeIcon(r.mimeType)}) ${labelText(resourceLabel(r))}`,
          description: labelText([s.name, r.mimeType, firstLine(r.description)].filter(Boolean).join(' · ')),
          detail: labelText(r.uri),
          item: { kind: 'resource' as const, target: { serverId: s.id, uri: r.uri, name: r.name, title: r.title, mimeType: r.mimeType, label: resourceLabel(r) } },
        })),
        ...(withTemplates
          ? s.features.resourceTemplates.map((t) => ({
              label: `$(symbol-variable) ${labelText(resourceLabel(t))}`,
              description: labelText([s.name, 'template', firstLine(t.description)].filter(Boolean).join(' · ')),
              detail: labelText(t.uriTemplate),
              item: { kind: 'template' as const, target: { serverId: s.id, template: t } },
            }))
          : []),
      ]);
  }

  async function pick(placeHolder: string, withTemplates: boolean): Promise<Pickable | undefined> {
    const items = pickables(withTemplates);
    if (!items.length) {
      void vscode.window.showInformationMessage('No running MCP server offers resources.');
      return undefined;
    }
    const more = service.servers().some((s) => service.hasMore(s.id));
    const picked = await vscode.window.showQuickPick(items, {
      placeHolder: more ? `${placeHolder} (loaded ones only)` : placeHolder,
      matchOnDescription: true,
      matchOnDetail: true,
    });
    return picked?.item;
  }

  /** The resource a command is about. */
  async function target(arg: unknown, uriArg: unknown, placeHolder: string): Promise<Target | undefined> {
    if (isNode(arg, 'resource')) {
      const r = arg.resource;
      return { serverId: arg.serverId, uri: r.uri, name: r.name, title: r.title, mimeType: r.mimeType, label: resourceLabel(r) };
    }
    if (typeof arg === 'string' && typeof uriArg === 'string') {
      const listed = service.server(arg)?.features.resources.find((r) => r.uri === uriArg);
      return { serverId: arg, uri: uriArg, name: listed?.name, title: listed?.title, mimeType: listed?.mimeType, label: listed ? resourceLabel(listed) : uriArg };
    }
    const documentUri = arg instanceof vscode.Uri ? arg : activeResourceDocument();
    const location = documentUri && files.locationOf(documentUri);
    if (location) return { serverId: location.serverId, uri: location.uri, name: location.fileName, label: location.fileName };
    if (arg !== undefined) return undefined;
    const picked = await pick(placeHolder, false);
    return picked?.kind === 'resource' ? picked.target : undefined;
  }

  function activeResourceDocument(): vscode.Uri | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const uri = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
    return uri && files.serverIdOf(uri) !== undefined ? uri : undefined;
  }

  async function openTemplate(t: TemplateTarget) {
    const filled = await picker.fill(t.template, service.completer(t.serverId, t.template.uriTemplate));
    if (!filled) return undefined;
    return opener.open({ serverId: t.serverId, uri: filled.uri, mimeType: t.template.mimeType });
  }

  async function withContents(arg: unknown, uriArg: unknown, placeHolder: string, use: (t: Target, contents: ResourceContents[]) => Promise<unknown>) {
    const t = await target(arg, uriArg, placeHolder);
    if (!t) return;
    const contents = await opener.readOrExplain(t);
    if (contents) await use(t, contents);
  }

  async function refresh(arg: unknown, uriArg: unknown) {
    if (isServerNode(arg)) return service.refresh(arg.serverId).catch(showError);
    if (arg === undefined && !activeResourceDocument()) {
      const running = service.servers().filter((s) => s.state.kind === 'running');
      return Promise.all(running.map((s) => service.refresh(s.id).catch(showError)));
    }
    const t = await target(arg, uriArg, 'Refresh which resource?');
    // Every open document of the resource reads it again; closed ones read it when opened.
    if (t) files.changed(t.serverId, t.uri);
  }

  const showError = (e: Error) => void vscode.window.showErrorMessage(plainText(e.message));

  const handlers: ResourceCommands['handlers'] = {
    [CommandIds.openResource]: async (arg?: unknown, uri?: unknown) => {
      const t = await target(arg, uri, 'Open which resource?');
      return t && opener.open(t);
    },
    [CommandIds.openResourceTemplate]: async (arg?: unknown, uriTemplate?: unknown) => {
      if (isNode(arg, 'template')) return openTemplate({ serverId: arg.serverId, template: arg.template });
      const listed = typeof arg === 'string' ? service.server(arg)?.features.resourceTemplates.find((t) => t.uriTemplate === uriTemplate) : undefined;
      if (listed) return openTemplate({ serverId: arg as string, template: listed });
      const picked = await pick('Fill in which resource template?', true);
      if (picked?.kind === 'template') return openTemplate(picked.target);
      return picked && opener.open(picked.target);
    },
    [CommandIds.findResource]: async () => {
      const picked = await pick('Find a resource by name, URI, server or type', true);
      if (picked?.kind === 'template') return openTemplate(picked.target);
      return picked && opener.open(picked.target);
    },
    [CommandIds.copyResourceUri]: async (arg?: unknown, uri?: unknown) => {
      const text = isNode(arg, 'template') ? arg.template.uriTemplate : (await target(arg, uri, 'Copy the URI of which resource?'))?.uri;
      if (text === undefined) return;
      await vscode.env.clipboard.writeText(text);
      vscode.window.setStatusBarMessage('Resource URI copied', 3000);
    },
    [CommandIds.copyResourceContents]: (arg?: unknown, uri?: unknown) =>
      withContents(arg, uri, 'Copy the contents of which resource?', async (t, contents) => {
        const { text, binaryParts } = copyableText(contents);
        if (!text && binaryParts) {
          void vscode.window.showInformationMessage(`"${plainText(t.label)}" is binary: use Save As… to keep its bytes.`);
          return;
        }
        await vscode.env.clipboard.writeText(text);
        vscode.window.setStatusBarMessage(`Contents of ${labelText(t.label)} copied`, 3000);
        if (binaryParts) void vscode.window.showInformationMessage(`Copied the text of "${plainText(t.label)}"; ${binaryParts} binary part(s) were left out.`);
      }),
    [CommandIds.saveResourceAs]: (arg?: unknown, uri?: unknown) =>
      withContents(arg, uri, 'Save which resource?', async (t, contents) => {
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
        const defaultUri = vscode.Uri.joinPath(folder, documentFileName(t.uri, contents, t));
        const destination = await vscode.window.showSaveDialog({ defaultUri, title: `Save ${plainText(t.label)} As` });
        if (!destination) return;
        await vscode.workspace.fs.writeFile(destination, bytesToSave(contents));
        vscode.window.setStatusBarMessage(`Saved ${labelText(t.label)}`, 3000);
      }),
    [CommandIds.attachResourceToChat]: (arg?: unknown, uri?: unknown) =>
      withContents(arg, uri, 'Attach which resource to chat?', async (t, contents) => {
        deps.attachments.add({ serverId: t.serverId, serverName: service.serverName(t.serverId), uri: t.uri, label: t.label, contents });
        try {
          await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp ', isPartialQuery: true });
        } catch {
          void vscode.window.showInformationMessage(`Attached "${plainText(t.label)}": it goes with your next @mcp request in chat.`);
        }
      }),
    [CommandIds.refreshResources]: refresh,
    [CommandIds.loadMoreResources]: (serverId: string, what?: 'resources' | 'templates') =>
      vscode.window
        .withProgress({ location: { viewId: deps.viewId } }, () => (what === 'templates' ? service.loadMoreTemplates(serverId) : service.loadMore(serverId)))
        .then(undefined, showError),
    [CommandIds.openResourceLink]: (serverId: string, link: unknown) => {
      if (typeof serverId !== 'string' || !link || typeof link !== 'object') return undefined;
      const l = link as { type?: string; resource?: ResourceContents; uri?: string; name?: string; title?: string; mimeType?: string };
      if (l.type === 'resource' || 'text' in l || 'blob' in l) return opener.openEmbedded(serverId, l as EmbeddedResourceLike);
      return typeof l.uri === 'string' ? opener.openLink(serverId, { uri: l.uri, name: l.name, title: l.title, mimeType: l.mimeType }) : undefined;
    },
  };
  return { handlers, templatePick: () => picker.state };
}
