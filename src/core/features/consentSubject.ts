// Whom a remembered consent belongs to (tool calls, sampling, elicitation): the server's definition as written, the
// same identity server trust is keyed on. Keyed by the server's id (scope and name), an "always allow" would carry
// over to whatever command or URL a workspace later puts under that name.
import type { ConfigScope, RawServer } from '../config/serverDefinition';
import { trustKey } from '../host/trustKey';

/**
 * Each definition's subject, kept while its object lives (a new object comes with every edit of its file): every call
 * asks for it (the guarded path, the tool name maps), and hashing the definition each time cost a call about 25 µs
 * (2 ms a call with 50 servers, where a map hashed them all).
 */
const subjects = new WeakMap<object, { scope: string; name: string; subject: string }>();

export const consentSubject = (scope: Pick<ConfigScope, 'key'>, name: string, raw: RawServer): string => {
  const kept = subjects.get(raw);
  if (kept?.scope === scope.key && kept.name === name) return kept.subject;
  const subject = trustKey(scope, name, raw);
  subjects.set(raw, { scope: scope.key, name, subject });
  return subject;
};
