// "Run Confined" in the trust question of a workspace stdio server that is not set to run confined: the same start
// with `"sandboxEnabled": true` and no rules of the file's own (the defaults), planned through the host's planLaunch
// port, so the question says exactly what confined would allow and trust is remembered for that exact plan. The
// choice is then written into the server's mcp.json by the front end (TrustPrompt.persistConfined): the file says
// what runs, and the start that follows the edit finds its plan trusted.
import type { LaunchPlanSource, PlanLaunch, StdioLaunchPlan } from '../config/launchPlan';
import type { RawServer, ResolvedServer } from '../config/serverDefinition';

export interface ConfinedAlternative {
  /** The resolved definition as the file will resolve once `sandboxEnabled` is written (its hash is the same). */
  resolved: ResolvedServer;
  /** As written, with `sandboxEnabled`: what the file will hold. */
  raw: RawServer;
  plan: StdioLaunchPlan;
}

/** The confined start a trust question may offer instead; undefined for a remote server, a confined one, or one that cannot be planned so. */
export async function confinedAlternative(planLaunch: PlanLaunch, source: LaunchPlanSource): Promise<ConfinedAlternative | undefined> {
  const { resolved, shown, raw } = source;
  if (resolved.type !== 'stdio' || shown.type !== 'stdio' || raw.type !== 'stdio' || resolved.sandboxEnabled) return undefined;
  const confined = { ...resolved, sandboxEnabled: true };
  const planned = await planLaunch({ ...source, resolved: confined, shown: { ...shown, sandboxEnabled: true } });
  if (!planned.ok || planned.plan.kind !== 'stdio' || !planned.plan.sandbox) return undefined;
  return { resolved: confined, raw: { ...raw, sandboxEnabled: true }, plan: planned.plan };
}
