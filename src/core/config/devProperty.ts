// The `dev` block of a stdio server (VS Code's format): the files whose change restarts it while its author works on
// it, and the debugger it starts under.
import { members, stringArrayProperty, stringProperty, type Diagnostics, type Member } from './configMembers';
import type { DevDebugConfig, DevModeConfig } from './types';

/** `dev: { watch, debug }`: the files whose change restarts the server; `debug`: `{ type: "node" }` or `{ type: "debugpy", debugpyPath? }`. */
export function devProperty(m: Map<string, Member>, d: Diagnostics): DevModeConfig | undefined {
  const node = m.get('dev')?.value;
  if (!node) return undefined;
  if (node.type !== 'object') {
    d.wrongType(node, '"dev"', 'an object with "watch" or "debug"');
    return undefined;
  }
  const dm = members(node, d);
  for (const [prop, { key }] of dm) {
    if (prop !== 'watch' && prop !== 'debug') d.add('warning', 'unknown-property', key, `Property "${prop}" is not used in "dev"; it is ignored.`);
  }
  const debug = debugProperty(dm, d);
  const watch = watchProperty(dm, d);
  if (!watch.length && !debug) return undefined;
  return { watch, ...(debug ? { debug } : {}) };
}

function watchProperty(dm: Map<string, Member>, d: Diagnostics): string[] {
  const watchNode = dm.get('watch')?.value;
  if (!watchNode) return [];
  if (watchNode.type === 'string') return watchNode.value ? [watchNode.value as string] : [];
  return stringArrayProperty(dm, 'watch', '"dev.watch"', d) ?? [];
}

function debugProperty(dm: Map<string, Member>, d: Diagnostics): DevDebugConfig | undefined {
  const node = dm.get('debug')?.value;
  if (!node) return undefined;
  if (node.type !== 'object') {
    d.wrongType(node, '"dev.debug"', 'an object with "type" ("node" or "debugpy")');
    return undefined;
  }
  const bm = members(node, d);
  const type = stringProperty(bm, 'type', '"dev.debug.type"', d);
  if (type === undefined) {
    if (!bm.has('type')) d.add('warning', 'missing-property', node, '"dev.debug" needs "type": "node" or "debugpy". The server starts without a debugger.');
    return undefined;
  }
  if (type !== 'node' && type !== 'debugpy') {
    d.add('warning', 'invalid-value', bm.get('type')!.value, `"dev.debug.type" must be "node" or "debugpy", not ${JSON.stringify(type)}. The server starts without a debugger.`);
    return undefined;
  }
  for (const [prop, { key }] of bm) {
    if (prop !== 'type' && !(type === 'debugpy' && prop === 'debugpyPath')) d.add('warning', 'unknown-property', key, `Property "${prop}" is not used in "dev.debug" of type "${type}"; it is ignored.`);
  }
  if (type === 'node') return { type };
  const debugpyPath = stringProperty(bm, 'debugpyPath', '"dev.debug.debugpyPath"', d);
  return debugpyPath ? { type, debugpyPath } : { type };
}
