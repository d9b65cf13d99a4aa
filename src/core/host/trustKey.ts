// The key a trust decision is remembered under: the definition as written, where, and under which name.
import { hashOf } from '../config/definitionHash';
import type { ConfigScope, RawServer } from '../config/serverDefinition';

/** `envFileDigest`: a hash of the env file's contents, so editing the file asks again like editing the definition. */
export function trustKey(scope: Pick<ConfigScope, 'key'>, name: string, raw: RawServer, envFileDigest = ''): string {
  return hashOf({ scope: scope.key, name, raw, ...(envFileDigest ? { envFileDigest } : {}) });
}

/** The keys of definitions as written, by their (never changed) object: a running server remembers its lists often. */
const keysOfDefinitions = new WeakMap<RawServer, { scopeKey: string; name: string; key: string }>();

/** trustKey of a server's definition as written (no env file), hashed again only for another object, scope or name. */
export function definitionTrustKey(scope: Pick<ConfigScope, 'key'>, name: string, raw: RawServer): string {
  const kept = keysOfDefinitions.get(raw);
  if (kept && kept.scopeKey === scope.key && kept.name === name) return kept.key;
  const key = trustKey(scope, name, raw);
  keysOfDefinitions.set(raw, { scopeKey: scope.key, name, key });
  return key;
}
