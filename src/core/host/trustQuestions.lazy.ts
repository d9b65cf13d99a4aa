// Trust is asked once per folder for all its new servers: the questions that arrive together (a folder's mcp.json
// loading starts each of its servers within a moment) are gathered for a short while, then asked as one, in the
// queue every question to the user goes through. A question whose start is cancelled meanwhile is left out.
import type { ServerDefinition } from '../config/serverDefinition';
import type { SerialQueue } from '../common/serialQueue';
import type { TrustFacts } from '../config/trustFacts';
import type { TrustAnswer, TrustPrompt } from './hostPorts';

type Definition = Pick<ServerDefinition, 'name' | 'scope' | 'raw'>;

interface Pending {
  definition: Definition;
  facts: TrustFacts;
  signal: AbortSignal;
  resolve(answer: TrustAnswer | undefined): void;
  reject(error: unknown): void;
}

/** How long questions of one folder are gathered before they are asked. */
export const GATHER_MS = 150;

export class TrustQuestions {
  private readonly batches = new Map<string, Pending[]>();

  constructor(
    private readonly prompt: TrustPrompt,
    private readonly dialogs: SerialQueue,
    private readonly gatherMs = GATHER_MS,
  ) {}

  /** The user's answer for one definition: a TrustAnswer, or undefined (not decided, or the start was cancelled). */
  ask(definition: Definition, facts: TrustFacts, signal: AbortSignal): Promise<TrustAnswer | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const key = definition.scope.key;
      const batch = this.batches.get(key);
      if (batch) {
        batch.push({ definition, facts, signal, resolve, reject });
        return;
      }
      this.batches.set(key, [{ definition, facts, signal, resolve, reject }]);
      setTimeout(() => {
        const gathered = this.batches.get(key) ?? [];
        this.batches.delete(key);
        void this.dialogs.run(() => this.askBatch(gathered));
      }, this.gatherMs);
    });
  }

  private async askBatch(gathered: Pending[]): Promise<void> {
    const live = gathered.filter((p) => !p.signal.aborted);
    for (const p of gathered) if (p.signal.aborted) p.resolve(undefined);
    if (!live.length) return;
    try {
      if (live.length > 1 && this.prompt.askTrustMany) {
        const answers = await this.prompt.askTrustMany(live.map(({ definition, facts }) => ({ definition, facts })));
        live.forEach((p, i) => p.resolve(answers[i]));
        return;
      }
      for (const p of live) p.resolve(p.signal.aborted ? undefined : await this.prompt.askTrust(p.definition, p.facts));
    } catch (e) {
      // Each start says it could not ask (answers already given stand: a settled promise ignores this).
      for (const p of live) p.reject(e);
    }
  }
}
