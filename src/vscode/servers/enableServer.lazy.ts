// Enable Server: the server's `"disabled": true` taken out of its file. The file watcher sees the change and starts
// the server, as after an edit by hand (a workspace server is asked about as usual).
import { promises as fs } from 'fs';
import type { ConfigScope } from '../../core/config/serverDefinition';
import { withoutDisabled } from '../../core/config/serverEntryEdit.lazy';

export async function enableServerInFile(scope: Pick<ConfigScope, 'configPath' | 'configSection'>, name: string): Promise<void> {
  const text = await fs.readFile(scope.configPath, 'utf8');
  const next = withoutDisabled(text, name, scope.configSection);
  if (next !== text) await fs.writeFile(scope.configPath, next);
}
