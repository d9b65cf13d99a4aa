// Whom a remembered consent belongs to (tool calls, sampling, elicitation): the server's definition as written, the
// same identity server trust is keyed on. Keyed by the server's id (scope and name), an "always allow" would carry
// over to whatever command or URL a workspace later puts under that name.
import type { ConfigScope, RawServer } from '../config/types';
import { trustKey } from '../host/trustKey';

/**
 * Computed once per definition object (each parse of a config file makes new ones, and nothing changes them after): an
 * agent's tool call asks it of every running server twice, and each answer is a SHA-256 of the definition's JSON.
 */
const subjects = new WeakMap<RawServer, Map<string, string>>();

export function consentSubject(scope: Pick<ConfigScope, 'key'>, name: string, raw: RawServer): string {
  let byPlace = subjects.get(raw);
  if (!byPlace) subjects.set(raw, (byPlace = new Map()));
  const place = `${scope.key}\u0000${name}`;
  let subject = byPlace.get(place);
  if (subject === undefined) byPlace.set(place, (subject = trustKey(scope, name, raw)));
  return subject;
}
