// Whom a remembered consent belongs to (tool calls, sampling, elicitation): the server's definition as written, the
// same identity server trust is keyed on. Keyed by the server's id (scope and name), an "always allow" would carry
// over to whatever command or URL a workspace later puts under that name.
import type { ConfigScope, RawServer } from '../config/serverDefinition';
import { trustKey } from '../host/trustKey';

export const consentSubject = (scope: Pick<ConfigScope, 'key'>, name: string, raw: RawServer): string => trustKey(scope, name, raw);
