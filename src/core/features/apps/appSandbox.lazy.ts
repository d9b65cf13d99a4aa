// The sandbox a view's HTML runs in: the Content-Security-Policy built from what its resource declares (and nothing
// else), the permissions its frame is allowed, and the HTML with that policy in front of everything it contains.
//
// Views have no server of their own: they are a document in a sandboxed frame with an opaque origin. So the policy
// never says 'self' (which in a webview could mean the webview's own origin), every directive falls back to 'none',
// and a declared origin enters the policy only when it is a plain https/wss origin (or http/ws on this machine, for
// development servers): a value that could add a directive or a keyword (`; script-src *`, `'unsafe-eval'`, `*`) is
// dropped and reported, never written into the policy.

export interface AppCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

export type AppPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

export interface AppSandbox {
  csp: AppCsp;
  permissions: AppPermission[];
  /** Declared values that were refused, with why (for the server's log). */
  refused: string[];
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};
const MAX_DOMAINS = 32;
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
/** A host name label, or `*.` in front of a domain: letters, digits and hyphens only. */
const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A declared origin as a CSP source expression, or undefined when it is not a plain, allowed origin. */
export function cspOrigin(value: string): string | undefined {
  const m = /^(https|wss|http|ws):\/\/(\[::1\]|[^/:?#\s]+)(:\d{1,5})?\/?$/i.exec(value.trim());
  if (!m) return undefined;
  const [, scheme, host, port = ''] = m;
  const lower = scheme.toLowerCase();
  const loopback = LOOPBACK.test(host);
  if (!loopback && !HOST.test(host)) return undefined;
  if ((lower === 'http' || lower === 'ws') && !loopback) return undefined;
  if (port && Number(port.slice(1)) > 65535) return undefined;
  return `${lower}://${host.toLowerCase()}${port}`;
}

/** What a UI resource's `_meta.ui` declares (read from its `resources/read` content), checked and normalised. */
export function appSandboxFrom(meta: unknown): AppSandbox {
  const ui = isRecord(meta) && isRecord(meta.ui) ? meta.ui : {};
  const declared = isRecord(ui.csp) ? ui.csp : {};
  const refused: string[] = [];
  const csp = {} as AppCsp;
  for (const key of CSP_KEYS) {
    const values = Array.isArray(declared[key]) ? (declared[key] as unknown[]) : [];
    const origins: string[] = [];
    for (const v of values) {
      const origin = typeof v === 'string' ? cspOrigin(v) : undefined;
      if (origin === undefined) refused.push(`${key}: ${JSON.stringify(v)} is not an https origin`);
      else if (origins.length >= MAX_DOMAINS) refused.push(`${key}: more than ${MAX_DOMAINS} origins`);
      else if (!origins.includes(origin)) origins.push(origin);
    }
    csp[key] = origins;
  }
  const asked = isRecord(ui.permissions) ? ui.permissions : {};
  const permissions = (Object.keys(PERMISSIONS) as AppPermission[]).filter((p) => isRecord(asked[p]));
  return { csp, permissions, refused: [...new Set(refused)] };
}

const list = (sources: string[], fallback = "'none'"): string => (sources.length ? sources.join(' ') : fallback);

/** A policy from the declared origins: `ownSource` is added to scripts and styles, `baseUri` is the base-uri rule. */
function policy(csp: AppCsp, ownSource: string, baseUri: string): string {
  const resources = csp.resourceDomains.join(' ');
  const withResources = (base: string) => `${base}${resources ? ` ${resources}` : ''}`;
  return [
    "default-src 'none'",
    `script-src ${withResources(`${ownSource}'unsafe-inline'`)}`,
    `style-src ${withResources(`${ownSource}'unsafe-inline'`)}`,
    `img-src ${withResources('data: blob:')}`,
    `font-src ${withResources('data:')}`,
    `media-src ${withResources('data: blob:')}`,
    `connect-src ${list(csp.connectDomains)}`,
    `frame-src ${list(csp.frameDomains)}`,
    "object-src 'none'",
    `base-uri ${baseUri}`,
    "form-action 'none'",
  ].join('; ');
}

/**
 * The policy the view's document runs under: the spec's restrictive default, widened only by declared origins.
 * Inline scripts and styles are allowed (a view is one HTML document); nothing else is, unless declared.
 */
export const appContentSecurityPolicy = (csp: AppCsp): string => policy(csp, '', list(csp.baseUriDomains));

/**
 * The policy of the webview that holds the view's frame. A frame whose document comes from `srcdoc` inherits it, so it
 * is an outer bound: the view's own policy plus our relay script and style (`ownSource`), and the frame itself may
 * never be navigated anywhere its declared frame origins do not allow.
 */
export const hostContentSecurityPolicy = (csp: AppCsp, ownSource: string): string => policy(csp, `${ownSource} `, "'none'");

/** The frame's `allow` attribute (Permissions Policy) for the permissions the resource asked for. */
export const allowAttribute = (permissions: readonly AppPermission[]): string => permissions.map((p) => PERMISSIONS[p]).join('; ');

const escapeAttribute = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The view's HTML with its policy as the first thing the parser meets (after a doctype, which must stay first): a
 * policy in a meta element applies from where it is parsed on, so nothing of the view runs before it. A view cannot
 * loosen it: another policy it declares only narrows what is allowed.
 */
export function withContentSecurityPolicy(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">`;
  const doctype = /^(\uFEFF?\s*<!doctype[^>]*>)/i.exec(html);
  return doctype ? `${doctype[1]}${meta}${html.slice(doctype[1].length)}` : `${meta}${html}`;
}
