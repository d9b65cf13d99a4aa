// The `dev` block of a stdio server (VS Code's format): the files whose change restarts it while its author works on it.
import { members, stringArrayProperty, type Diagnostics, type Member } from './configMembers';

/** `dev: { watch, debug }`: the files whose change restarts the server. `debug` is not supported (yet): said so. */
export function devProperty(m: Map<string, Member>, d: Diagnostics): { watch: string[] } | undefined {
  const node = m.get('dev')?.value;
  if (!node) return undefined;
  if (node.type !== 'object') {
    d.wrongType(node, '"dev"', 'an object with "watch"');
    return undefined;
  }
  const dm = members(node, d);
  for (const [prop, { key }] of dm) {
    if (prop === 'debug') d.add('warning', 'unsupported-property', key, '"dev.debug" is not supported by MCP Host: the server starts without a debugger.');
    else if (prop !== 'watch') d.add('warning', 'unknown-property', key, `Property "${prop}" is not used in "dev"; it is ignored.`);
  }
  const watchNode = dm.get('watch')?.value;
  if (!watchNode) return undefined;
  if (watchNode.type === 'string') return watchNode.value ? { watch: [watchNode.value as string] } : undefined;
  const watch = stringArrayProperty(dm, 'watch', '"dev.watch"', d);
  return watch?.length ? { watch } : undefined;
}
