// A remote server's entry in mcp.json: its URL (http(s), or a socket or named pipe), headers, a `headersHelper`
// (Claude Code's), and how it signs in (`auth`, or `oauth` as VS Code and Claude Code write it).
import type { Node } from 'jsonc-parser';
import { parseAuth } from './authProperty';
import { splitCommandLine } from './commandLine';
import { members, stringArrayProperty, stringMapProperty, stringProperty, type Diagnostics, type Member } from './configMembers';
import type { RemoteServerConfig, VariableDialect } from './serverDefinition';
import { isServerUrl } from './serverUrl';
import { variablesIn } from './variableSyntax';

export function parseRemoteServer(
  m: Map<string, Member>,
  { key, name, type, disabled }: { key: Node; name: string; type: 'http' | 'sse'; disabled: boolean },
  d: Diagnostics,
  checkVariables: (n: Node) => void,
  dialect: VariableDialect,
): RemoteServerConfig | undefined {
  const urlNode = m.get('url')?.value;
  const url = stringProperty(m, 'url', '"url"', d, checkVariables);
  if (!urlNode) d.error('missing-url', key, `Server "${name}" has no "url" to connect to.`);
  else if (url?.trim() === '') d.error('missing-url', urlNode, '"url" must not be empty.');
  else if (url !== undefined && !plausibleUrl(url, dialect)) d.error('invalid-url', urlNode, `"${url}" is not an http or https URL (nor a unix:///path.sock#/path or pipe:///name#/path one).`);
  const headers = stringMapProperty(m, 'headers', '"headers"', d, checkVariables);
  const headersHelper = headersHelperProperty(m, d, checkVariables);
  const authNode = m.get('auth')?.value;
  const oauthNode = m.get('oauth')?.value;
  if (authNode && oauthNode) d.error('conflicting-auth', oauthNode, '"oauth" and "auth" both say how to sign in: keep one ("auth": { "type": "oauth", "clientId": … } says what "oauth" does).');
  const auth = authNode ? parseAuth(authNode, d, checkVariables, url) : oauthNode ? oauthProperty(oauthNode, d, checkVariables) : undefined;
  if (url === undefined) return undefined;
  return { type, url, headers, ...(headersHelper ? { headersHelper } : {}), ...(auth ? { auth } : {}), ...(disabled ? { disabled: true } : {}) };
}

/**
 * `oauth` (VS Code's and Claude Code's): the browser sign-in with a client registered beforehand, `clientId`, instead
 * of registering one. VS Code's `enterpriseManaged` and Claude Code's `callbackPort` are said not to be honoured.
 */
function oauthProperty(node: Node, d: Diagnostics, check: (n: Node) => void): { type: 'oauth'; clientId?: string } | undefined {
  if (node.type !== 'object') {
    d.wrongType(node, '"oauth"', 'an object');
    return undefined;
  }
  const m = members(node, d);
  for (const [prop, { key }] of m) {
    if (prop === 'clientId') continue;
    if (prop === 'enterpriseManaged') d.add('warning', 'not-honoured', key, '"enterpriseManaged" (VS Code: sign-in through your organisation\'s identity provider) is not done here: write "auth": { "type": "crossAppAccess", … } with your identity provider (docs/remote-servers.md, Other ways to authorize).');
    else if (prop === 'callbackPort') d.add('warning', 'not-honoured', key, '"callbackPort" is not honoured: the sign-in comes back to http://127.0.0.1:<a free port>/callback, which loopback redirects may use (RFC 8252).');
    else d.add('warning', 'unknown-property', key, `Property "${prop}" is not used in "oauth"; it is ignored.`);
  }
  const clientId = stringProperty(m, 'clientId', '"oauth.clientId"', d, check);
  return { type: 'oauth', ...(clientId ? { clientId } : {}) };
}

/**
 * `headersHelper` (Claude Code's): a command whose output is a JSON object of headers. Written as one line (split as a
 * shell splits words, but never given to one) or as a list of the program and its arguments.
 */
function headersHelperProperty(m: Map<string, Member>, d: Diagnostics, check: (n: Node) => void): string[] | undefined {
  const node = m.get('headersHelper')?.value;
  if (!node) return undefined;
  if (node.type === 'array') {
    const argv = stringArrayProperty(m, 'headersHelper', '"headersHelper"', d, check);
    if (argv && !argv.length) d.error('invalid-headers-helper', node, '"headersHelper" is empty.');
    return argv?.length ? argv : undefined;
  }
  const line = stringProperty(m, 'headersHelper', '"headersHelper"', d, check);
  if (line === undefined) return undefined;
  const split = splitCommandLine(line, '${userHome}');
  if (!split.ok) {
    d.error('invalid-headers-helper', node, `"headersHelper" cannot be run: ${split.message}`);
    return undefined;
  }
  return split.argv;
}

/** Before variables are resolved only a written-out scheme can be judged: `${input:url}` may be anything. */
function plausibleUrl(url: string, dialect: VariableDialect): boolean {
  const vars = variablesIn(url, dialect);
  if (vars.length === 0) return isServerUrl(url);
  const literal = url.slice(0, vars[0].index);
  const colon = literal.indexOf(':');
  return colon < 0 || /^(https?|unix|pipe)$/i.test(literal.slice(0, colon));
}
