// `dev.debug` at a start: the plan says under which debugger the server starts (or why without one); the editor's
// debugger is attached just before the process starts (debugpy connects to it, node's inspector waits for it).
import type { StdioLaunchPlan } from '../../config/launchPlan';
import type { ServerDefinition } from '../../config/serverDefinition';
import type { ServerLog } from '../../common/log';
import type { ConnectionOptions, DebuggerAttachment } from '../../host/connectionPort';
import { StartError } from './startErrors.lazy';

export async function attachDebugger(plan: StdioLaunchPlan, definition: ServerDefinition, log: ServerLog, attach: ConnectionOptions['attachDebugger']): Promise<DebuggerAttachment | undefined> {
  const { debug } = plan;
  if (!debug) return undefined;
  if (debug.unavailable !== undefined) {
    log.warn(`"dev.debug" (${debug.type}) is set, but the server starts without a debugger: ${debug.unavailable}`);
    return undefined;
  }
  if (!attach) {
    log.warn(`"dev.debug" (${debug.type}): no debugger attaches here; the server waits for one on ${debug.host}:${debug.port}.`);
    return undefined;
  }
  try {
    const attachment = await attach(definition, debug, log);
    log.info(`"dev.debug" (${debug.type}): VS Code's debugger attaches on ${debug.host}:${debug.port}.`);
    return attachment;
  } catch (e) {
    throw new StartError(`The debugger (${debug.type}) could not start: ${(e as Error).message}`, false);
  }
}
