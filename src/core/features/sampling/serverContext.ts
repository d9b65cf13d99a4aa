// What `includeContext` adds to a sampling request: what the user's MCP servers are and offer (their instructions and
// tools), never anything else from the editor. Instructions and descriptions are cut at 2 KB, with a marker.
import type { ServerInfo } from '../../host/serverInfo';
import { capText } from '../tools/contextBudget';

export function describeServerContext(servers: ServerInfo[], serverId: string, scope: 'thisServer' | 'allServers'): string {
  const included = servers.filter((s) => s.state.kind === 'running' && (scope === 'allServers' || s.id === serverId));
  return included
    .map((s) => {
      const lines = [`Server "${s.name}"${s.serverInfo ? ` (${s.serverInfo.name} ${s.serverInfo.version})` : ''}`];
      if (s.instructions) lines.push(`Instructions: ${capText(s.instructions)}`);
      for (const t of s.features.tools) lines.push(`- tool ${t.name}${t.description ? `: ${capText(t.description)}` : ''}`);
      return lines.join('\n');
    })
    .join('\n\n');
}
