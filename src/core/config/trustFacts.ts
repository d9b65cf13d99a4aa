// What the trust question knows beyond the definition as written; gathered by the host, rendered by presentation.
import type { LaunchPlan, StdioLaunchPlan } from './launchPlan';

export interface TrustFacts {
  /** The env file's variables (read, capped), or why it could not be read. */
  envFile?: { variables: Record<string, string> } | { error: string };
  /** Inputs whose stored value (entered earlier, maybe for another server) this server would receive. */
  storedInputs?: string[];
  /** What the start will run, as derived from the resolved definition: when given, the question is rendered from it alone. */
  plan?: LaunchPlan;
  /**
   * A workspace stdio server that is not set to run confined: the plan "Run Confined" would run instead (the same start
   * with `sandboxEnabled` and the default rules), so the question can offer it and say what it allows.
   */
  confined?: StdioLaunchPlan;
}
