// The key a trust decision is remembered under: the definition as written, where, and under which name.
import { hashOf } from '../config/definitionHash';
import type { ConfigScope, RawServer } from '../config/serverDefinition';

/** `envFileDigest`: a hash of the env file's contents, so editing the file asks again like editing the definition. */
export function trustKey(scope: Pick<ConfigScope, 'key'>, name: string, raw: RawServer, envFileDigest = ''): string {
  return hashOf({ scope: scope.key, name, raw, ...(envFileDigest ? { envFileDigest } : {}) });
}
