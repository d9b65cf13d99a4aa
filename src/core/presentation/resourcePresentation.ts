// How resources read on screen: descriptions, icons and Markdown tooltips of the Resources and Servers views and the
// quick picks. Pure functions without `vscode`, unit-tested in plain Node. Everything a server wrote goes through serverText.
import type { Icon } from '@modelcontextprotocol/client';
import { mimeEssence } from './mimeTypes';
import type { Resource, ResourceTemplate, ServerInfo } from '../host/serverInfo';
import { escapeMarkdown, firstLine, heading, inlineCode, markdownLine } from './serverText';
import { describeState, plural, resourceLabel } from './serverPresentation';

export type ListingStatus =
  /** Running with the resources capability (or sending resources anyway). */
  | 'running'
  /** Running, but it offers no resources at all. */
  | 'no-resources'
  | 'starting'
  /** Stopped or failed: `reason` says why, the items are the last ones seen. */
  | 'down';

export interface ServerListing {
  server: ServerInfo;
  status: ListingStatus;
  /** Why a server is down: its error, or the reason it was stopped or kept from starting. */
  reason?: string;
  resources: Resource[];
  templates: ResourceTemplate[];
  /** The server has more resources than loaded. */
  hasMore: boolean;
  /** The server has more resource templates than loaded. */
  hasMoreTemplates: boolean;
}

export { resourceLabel };

/** `512 bytes`, `1.5 KB`, `10 MB` (binary multiples, as editors show file sizes). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return plural(bytes, 'byte');
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** The line next to a resource: its description's first line, MIME type and size, when given. */
export function resourceDescription(resource: Pick<Resource, 'description' | 'mimeType' | 'size'>): string {
  return [firstLine(resource.description), resource.mimeType, resource.size !== undefined ? formatSize(resource.size) : '']
    .filter(Boolean)
    .join(' · ');
}

export function templateDescription(template: ResourceTemplate): string {
  return [firstLine(template.description), template.mimeType].filter(Boolean).join(' · ');
}

/** A codicon for a MIME type. */
export function mimeIcon(mimeType: string | undefined): string {
  const essence = mimeEssence(mimeType) ?? '';
  if (/^(image|audio|video)\//.test(essence)) return 'file-media';
  if (essence === 'application/pdf') return 'file-pdf';
  if (/(zip|gzip|x-tar|x-7z|x-rar)/.test(essence)) return 'file-zip';
  if (essence === 'application/json' || essence.endsWith('+json')) return 'json';
  if (essence === 'text/markdown' || essence === 'text/x-markdown') return 'markdown';
  if (essence === 'application/octet-stream') return 'file-binary';
  if (/^text\/(html|css|javascript|x-)|^application\/(javascript|typescript|xml|x-sh|sql|yaml|x-yaml|toml)/.test(essence)) return 'file-code';
  return 'file';
}

/**
 * A server-provided icon to show, if one is safe to: only `data:` images (a remote URL would be fetched on every
 * render, telling a third party when the view is open). Prefers an icon for the current theme, then one for any theme.
 */
export function pickIcon(icons: readonly Icon[] | undefined, theme: 'light' | 'dark'): string | undefined {
  const usable = (icons ?? []).filter((i) => /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i.test(i.src));
  return (usable.find((i) => i.theme === theme) ?? usable.find((i) => !i.theme) ?? usable[0])?.src;
}

type Annotated = Pick<Resource, 'annotations'>;

function annotationLines(item: Annotated): string[] {
  const a = item.annotations;
  if (!a) return [];
  const lines: string[] = [];
  if (a.audience?.length) lines.push(`**Audience:** ${markdownLine(a.audience.join(', '))}`);
  if (a.priority !== undefined) lines.push(`**Priority:** ${markdownLine(String(a.priority))}`);
  if (a.lastModified) lines.push(`**Last modified:** ${markdownLine(a.lastModified)}`);
  return lines;
}

/** A resource's hover: name, URI, description, type and size, annotations, and which server serves it (if not shown around it). */
export function resourceTooltip(resource: Resource, serverName?: string): string {
  const sections = [heading(resourceLabel(resource), resource.name), inlineCode(resource.uri)];
  if (resource.description?.trim()) sections.push(escapeMarkdown(resource.description.trim()));
  const facts = [resource.mimeType, resource.size !== undefined ? `${formatSize(resource.size)} (${resource.size} bytes)` : undefined].filter(Boolean);
  if (facts.length) sections.push(markdownLine(facts.join(' · ')));
  const annotations = annotationLines(resource);
  if (annotations.length) sections.push(annotations.join('  \n'));
  if (serverName !== undefined) sections.push(`From ${markdownLine(serverName)}`);
  return sections.join('\n\n');
}

export function templateTooltip(template: ResourceTemplate, serverName?: string): string {
  const sections = [heading(resourceLabel(template), template.name), `Template ${inlineCode(template.uriTemplate)}`];
  if (template.description?.trim()) sections.push(escapeMarkdown(template.description.trim()));
  if (template.mimeType) sections.push(markdownLine(template.mimeType));
  const annotations = annotationLines(template);
  if (annotations.length) sections.push(annotations.join('  \n'));
  sections.push(serverName === undefined ? 'Select to fill in its variables.' : `From ${markdownLine(serverName)} · select to fill in its variables`);
  return sections.join('\n\n');
}

/** The line next to a server in the Resources view. */
export function serverListingDescription(listing: ServerListing): string {
  switch (listing.status) {
    case 'running': {
      const counts = [];
      counts.push(`${listing.resources.length}${listing.hasMore ? '+' : ''} resource${listing.resources.length === 1 && !listing.hasMore ? '' : 's'}`);
      if (listing.templates.length) {
        counts.push(`${listing.templates.length}${listing.hasMoreTemplates ? '+' : ''} template${listing.templates.length === 1 && !listing.hasMoreTemplates ? '' : 's'}`);
      }
      return counts.join(' · ');
    }
    case 'no-resources':
      return 'no resources';
    case 'starting':
      return 'starting…';
    case 'down':
      // The Servers view's words: "restricted mode", "not trusted", "needs sign-in", "error", "stopped".
      return describeState(listing.server);
  }
}

/** Why a server's resources are greyed: its error or the reason it is not running. */
export function downExplanation(listing: ServerListing): string {
  const reason = listing.reason ? firstLine(listing.reason) : '';
  if (listing.server.state.kind === 'error') return reason || 'The server failed.';
  return reason ? `Not running: ${reason}` : 'Not running: start the server to browse its resources.';
}
