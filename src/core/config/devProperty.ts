// The `dev` block of a stdio server (VS Code's format): the files whose change restarts it while its author works on
// it, and the debugger it starts under. (Activation code: kept small. The JSON schema flags unknown keys in `debug`.)
import { members, stringArrayProperty, stringProperty, type Diagnostics, type Member } from './configMembers';
import type { DevDebugConfig, DevModeConfig } from './serverDefinition';

/** `dev: { watch, debug }`: the files whose change restarts the server; `debug`: `{ type: "node" }` or `{ type: "debugpy", debugpyPath? }`. */
export function devProperty(m: Map<string, Member>, d: Diagnostics): DevModeConfig | undefined {
  const node = m.get('dev')?.value;
  if (!node) return undefined;
  if (node.type !== 'object') return void d.wrongType(node, '"dev"', 'an object with "watch" or "debug"');
  const dm = members(node, d);
  for (const [prop, { key }] of dm) if (prop !== 'watch' && prop !== 'debug') d.add('warning', 'unknown-property', key, `Property "${prop}" is not used in "dev"; it is ignored.`);
  const watchNode = dm.get('watch')?.value;
  const watch = watchNode?.type === 'string' ? [watchNode.value as string].filter(Boolean) : (stringArrayProperty(dm, 'watch', '"dev.watch"', d) ?? []);
  const debugNode = dm.get('debug')?.value;
  if (debugNode && debugNode.type !== 'object') d.wrongType(debugNode, '"dev.debug"', 'an object with "type"');
  const bm = debugNode?.type === 'object' ? members(debugNode, d) : undefined;
  const type = bm && stringProperty(bm, 'type', '"dev.debug.type"', d);
  // Another type: the server starts, without a debugger.
  if (bm && type !== 'node' && type !== 'debugpy') d.add('warning', 'invalid-value', bm.get('type')?.value ?? debugNode!, `"dev.debug.type" must be "node" or "debugpy": the server starts without a debugger.`);
  const debugpyPath = type === 'debugpy' ? stringProperty(bm!, 'debugpyPath', '"dev.debug.debugpyPath"', d) : undefined;
  const debug = type === 'node' || type === 'debugpy' ? ({ type, ...(debugpyPath ? { debugpyPath } : {}) } as DevDebugConfig) : undefined;
  return watch.length || debug ? { watch, ...(debug ? { debug } : {}) } : undefined;
}
