// The `auth` block of a remote server in mcp.json: its kind, what each kind needs, secrets only as references, and
// endpoints that may be contacted (https, or http on this machine for a server on this machine).
import type { Node } from 'jsonc-parser';
import { isAllowedAuthEndpoint } from './allowedUrls';
import { members, stringArrayProperty, stringProperty, type Diagnostics } from './configMembers';
import { REMOTE_AUTH_TYPES, type RemoteAuthConfig, type RemoteAuthType } from './serverDefinition';
import { variablesIn } from './variableSyntax';

const AUTH_KEYS = new Set(['type', 'clientId', 'clientSecret', 'privateKey', 'algorithm', 'scope', 'issuer', 'clientMetadataUrl', 'dpop', 'idp', 'assertion', 'assertionFile', 'assertionCommand']);
const IDP_KEYS = new Set(['issuer', 'tokenEndpoint', 'clientId', 'clientSecret', 'idToken']);
/** What each kind of `auth` needs. */
const AUTH_REQUIRED: Record<RemoteAuthType, string[]> = {
  oauth: [],
  clientCredentials: ['clientId', 'clientSecret'],
  privateKeyJwt: ['clientId', 'privateKey', 'algorithm'],
  crossAppAccess: ['clientId', 'clientSecret', 'idp'],
  jwtBearer: ['clientId'],
};

/** A secret is never written into mcp.json: it comes from an input (secret storage) or the environment. */
function checkSecretReference(node: Node, what: string, d: Diagnostics): void {
  const value = node.value as string;
  const vars = variablesIn(value);
  const whole = vars.length === 1 && vars[0].text === value.trim() && (vars[0].ref.kind === 'input' || vars[0].ref.kind === 'env');
  if (!whole) d.error('secret-literal', node, `${what} must be a secret reference, \${input:…} or \${env:…}, never the secret itself.`);
}

/**
 * An endpoint written in `auth` gets the credentials: https only (http only on this machine, for a server on this
 * machine). A value with variables is checked once resolved, before anything is sent.
 */
function checkAuthEndpoint(node: Node | undefined, what: string, serverUrl: string | undefined, d: Diagnostics): void {
  const value = node?.type === 'string' ? (node.value as string) : undefined;
  if (value === undefined || variablesIn(value).length) return;
  const server = serverUrl !== undefined && !variablesIn(serverUrl).length ? serverUrl : 'https://server.invalid/';
  if (!isAllowedAuthEndpoint(value, server)) d.error('insecure-auth-endpoint', node!, `${what} must be an https URL (http only on this machine, for a server on this machine), not "${value}".`);
}

export function parseAuth(node: Node, d: Diagnostics, checkVariables: (n: Node) => void, serverUrl?: string): RemoteAuthConfig | undefined {
  if (node.type !== 'object') {
    d.wrongType(node, '"auth"', 'an object');
    return undefined;
  }
  const m = members(node, d);
  for (const [prop, { key }] of m) if (!AUTH_KEYS.has(prop)) d.add('warning', 'unknown-property', key, `Property "${prop}" is not used in "auth"; it is ignored.`);
  const typeNode = m.get('type')?.value;
  const type = stringProperty(m, 'type', '"auth.type"', d) as RemoteAuthType | undefined;
  if (!typeNode || type === undefined) {
    if (!typeNode) d.error('missing-auth-type', node, `"auth" needs a "type": ${REMOTE_AUTH_TYPES.join(', ')}.`);
    return undefined;
  }
  if (!REMOTE_AUTH_TYPES.includes(type)) {
    d.error('unknown-auth-type', typeNode, `Unknown auth type "${type}": use ${REMOTE_AUTH_TYPES.join(', ')}.`);
    return undefined;
  }
  const auth: RemoteAuthConfig = { type };
  checkAuthEndpoint(m.get('issuer')?.value, '"auth.issuer"', serverUrl, d);
  checkAuthEndpoint(m.get('clientMetadataUrl')?.value, '"auth.clientMetadataUrl"', serverUrl, d);
  for (const key of ['clientId', 'clientSecret', 'privateKey', 'algorithm', 'scope', 'issuer', 'clientMetadataUrl', 'assertion', 'assertionFile'] as const) {
    const value = stringProperty(m, key, `"auth.${key}"`, d, checkVariables);
    if (value === undefined) continue;
    if (key === 'clientSecret' || key === 'privateKey' || key === 'assertion') checkSecretReference(m.get(key)!.value, `"auth.${key}"`, d);
    auth[key] = value;
  }
  const dpopNode = m.get('dpop')?.value;
  if (dpopNode) {
    if (dpopNode.type !== 'boolean') d.wrongType(dpopNode, '"auth.dpop"', 'true or false');
    else auth.dpop = dpopNode.value as boolean;
  }
  const idpNode = m.get('idp')?.value;
  if (idpNode) {
    if (idpNode.type !== 'object') d.wrongType(idpNode, '"auth.idp"', 'an object');
    else {
      const im = members(idpNode, d);
      for (const [prop, { key }] of im) if (!IDP_KEYS.has(prop)) d.add('warning', 'unknown-property', key, `Property "${prop}" is not used in "auth.idp"; it is ignored.`);
      const get = (k: string) => stringProperty(im, k, `"auth.idp.${k}"`, d, checkVariables);
      for (const k of ['issuer', 'tokenEndpoint']) checkAuthEndpoint(im.get(k)?.value, `"auth.idp.${k}"`, serverUrl, d);
      const [issuer, tokenEndpoint, clientId, clientSecret, idToken] = ['issuer', 'tokenEndpoint', 'clientId', 'clientSecret', 'idToken'].map(get);
      for (const k of ['clientSecret', 'idToken']) if (im.get(k)?.value.type === 'string') checkSecretReference(im.get(k)!.value, `"auth.idp.${k}"`, d);
      if (!clientId || !idToken || (!issuer && !tokenEndpoint)) {
        d.error('missing-auth-property', idpNode, '"auth.idp" needs "clientId", "idToken" and the identity provider\'s "issuer" or "tokenEndpoint".');
      } else {
        auth.idp = { clientId, idToken, ...(issuer ? { issuer } : {}), ...(tokenEndpoint ? { tokenEndpoint } : {}), ...(clientSecret ? { clientSecret } : {}) };
      }
    }
  }
  const command = stringArrayProperty(m, 'assertionCommand', '"auth.assertionCommand"', d, checkVariables);
  if (command?.length) auth.assertionCommand = command;
  else if (command) d.error('missing-auth-property', m.get('assertionCommand')!.value, '"auth.assertionCommand" is empty.');
  if (type === 'jwtBearer' && ['assertion', 'assertionFile', 'assertionCommand'].filter((k) => m.has(k)).length !== 1) {
    d.error('missing-auth-property', typeNode, '"jwtBearer" needs one of "assertion", "assertionFile", "assertionCommand".');
    return undefined;
  }
  const missing = AUTH_REQUIRED[type].filter((k) => m.get(k) === undefined);
  if (missing.length) {
    d.error('missing-auth-property', typeNode, `"auth" of type "${type}" needs ${missing.map((k) => `"${k}"`).join(', ')}.`);
    return undefined;
  }
  return auth;
}
