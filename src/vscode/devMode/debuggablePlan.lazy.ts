// The launch plan in VS Code: for a server with `dev.debug`, what the editor's debugger needs first — a free port on
// 127.0.0.1, whether a debugger of that type is here, the debugpy the Python Debugger extension bundles. Part of the
// launch bundle (../launchBundle.lazy.ts, dist/launch.js): plans are made before the host bundle loads.
import * as net from 'net';
import vscode = require('vscode');
import type { DebuggerSupport, LaunchPlanSource, PlanLaunchResult } from '../../core/config/launchPlan';
import { DEBUG_HOST } from '../../core/protocol/launch/debugPlan.lazy';
import { planLaunch } from '../../core/protocol/launch/launchPlanner.lazy';

export async function planDebuggableLaunch(source: LaunchPlanSource): Promise<PlanLaunchResult> {
  const debug = source.resolved.type === 'stdio' ? source.resolved.dev?.debug : undefined;
  if (!debug) return planLaunch(source);
  const types = debuggerTypes();
  const debuggers: DebuggerSupport = { port: await freePort(), types };
  if (debug.type === 'debugpy' && !debug.debugpyPath && types.includes('debugpy')) {
    // As VS Code does: the debugpy the Python Debugger extension bundles, run by the server's own python.
    const bundled = await Promise.resolve(vscode.commands.executeCommand<unknown>('python.getDebugpyPackagePath')).catch(() => undefined);
    if (typeof bundled === 'string' && bundled) return planLaunch({ ...source, debuggers: { ...debuggers, debugpyPackage: bundled } });
  }
  return planLaunch({ ...source, debuggers });
}

/** A port on 127.0.0.1 that is free now (the system's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, DEBUG_HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The debugger types some extension here contributes (`node` is js-debug's, built in; `debugpy` the Python Debugger's). */
export function debuggerTypes(): ('node' | 'debugpy')[] {
  const contributed = new Set<string>();
  for (const ext of vscode.extensions.all) {
    const debuggers = (ext.packageJSON as { contributes?: { debuggers?: { type?: unknown }[] } } | undefined)?.contributes?.debuggers;
    if (Array.isArray(debuggers)) for (const d of debuggers) if (typeof d?.type === 'string') contributed.add(d.type);
  }
  return (['node', 'debugpy'] as const).filter((t) => contributed.has(t));
}
