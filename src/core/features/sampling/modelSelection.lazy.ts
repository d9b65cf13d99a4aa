// Which language model answers a server's sampling request. The server may only express preferences (name hints and
// cost/speed/intelligence priorities); the user decides what it may use (models pinned per server).
import type { LanguageModelInfo } from '../languageModel';

export interface SamplingModelPreferences {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

export type ModelChoice = { model: LanguageModelInfo; reason: string } | { model: undefined; reason: string };

/** Rough traits from well-known naming conventions (no editor API reports cost or speed): 0 = low, 1 = high. */
export function modelTraits(model: LanguageModelInfo): { cost: number; speed: number; intelligence: number } {
  const name = `${model.id} ${model.family} ${model.name}`.toLowerCase();
  if (/\b(mini|nano|flash|haiku|lite|small|instant|fast)\b|-(mini|nano|flash|lite)\b|\b\d+(\.\d+)?b\b/.test(name))
    return { cost: 0.2, speed: 0.9, intelligence: 0.4 };
  if (/\b(opus|ultra|large|thinking|reasoning)\b|\bo[134]\b|-pro\b|\bpro\b|\bgpt-5\b|\bsonnet\b/.test(name))
    return { cost: 0.8, speed: 0.4, intelligence: 0.9 };
  return { cost: 0.5, speed: 0.6, intelligence: 0.6 };
}

const clamp01 = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

function hasPriorities(prefs: SamplingModelPreferences | undefined): boolean {
  return !!prefs && (clamp01(prefs.costPriority) > 0 || clamp01(prefs.speedPriority) > 0 || clamp01(prefs.intelligencePriority) > 0);
}

/** The best model by the server's priorities; the first one wins ties, so the caller's order decides. */
function byPriorities(models: LanguageModelInfo[], prefs: SamplingModelPreferences | undefined): LanguageModelInfo {
  if (!hasPriorities(prefs)) return models[0];
  const score = (m: LanguageModelInfo) => {
    const t = modelTraits(m);
    return clamp01(prefs?.costPriority) * (1 - t.cost) + clamp01(prefs?.speedPriority) * t.speed + clamp01(prefs?.intelligencePriority) * t.intelligence;
  };
  return models.reduce((best, m) => (score(m) > score(best) ? m : best));
}

const matchesName = (m: LanguageModelInfo, text: string) => {
  const needle = text.toLowerCase();
  return [m.id, m.family, m.name].some((s) => s.toLowerCase().includes(needle));
};

const matchesPin = (m: LanguageModelInfo, pin: string) => {
  const p = pin.toLowerCase();
  return [m.id, m.family, `${m.vendor}/${m.id}`, `${m.vendor}/${m.family}`].some((s) => s.toLowerCase() === p);
};

/**
 * Chooses a model: hints as substrings of the id, family or name, in the server's order (the first hint with any
 * match wins); the server's priorities break ties among that hint's matches. Without a matching hint: the first model
 * the user pinned for this server, else the best by priorities, else the first model offered (the editor's default).
 * When the user pinned models, only those are candidates.
 */
export function selectModel(available: LanguageModelInfo[], prefs: SamplingModelPreferences | undefined, pinned: readonly string[] = []): ModelChoice {
  if (!available.length) return { model: undefined, reason: 'no language model is available' };
  const candidates = pinned.length ? dedupe(pinned.flatMap((p) => available.filter((m) => matchesPin(m, p)))) : available;
  if (!candidates.length) return { model: undefined, reason: `none of the models allowed for this server (${pinned.join(', ')}) is available` };
  for (const hint of prefs?.hints ?? []) {
    if (!hint.name?.trim()) continue;
    const matches = candidates.filter((m) => matchesName(m, hint.name!.trim()));
    if (matches.length) return { model: byPriorities(matches, prefs), reason: `matches the server's hint "${hint.name}"` };
  }
  if (pinned.length) return { model: candidates[0], reason: 'allowed for this server in your settings' };
  if (hasPriorities(prefs)) return { model: byPriorities(candidates, prefs), reason: "best fit for the server's cost/speed/intelligence priorities" };
  return { model: candidates[0], reason: 'the default model' };
}

function dedupe(models: LanguageModelInfo[]): LanguageModelInfo[] {
  return models.filter((m, i) => models.findIndex((o) => o.vendor === m.vendor && o.id === m.id) === i);
}
