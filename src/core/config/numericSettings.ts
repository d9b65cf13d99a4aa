// Numbers from settings are input like any other: a workspace (or a typo) can write NaN, a string, a negative or a
// huge value. Each numeric setting has a range; anything outside it falls back to its default, and the log says so.
// (A timeout over 2^31-1 ms would overflow setTimeout and fire at once.)

export interface NumericSetting {
  key: string;
  min: number;
  max: number;
  default: number;
  /** Whole numbers only (counts, rates). */
  integer?: boolean;
  /** A duration: milliseconds per unit of the setting (its timer must not overflow). */
  msPerUnit?: number;
}

export const NUMERIC_SETTINGS = {
  initializeTimeout: { key: 'mcpHost.initializeTimeout', min: 1, max: 600, default: 30, msPerUnit: 1000 },
  requestTimeout: { key: 'mcpHost.requestTimeout', min: 1, max: 3600, default: 60, msPerUnit: 1000 },
  pingInterval: { key: 'mcpHost.ping.interval', min: 0, max: 3600, default: 60, msPerUnit: 1000 },
  pingTimeout: { key: 'mcpHost.ping.timeout', min: 1, max: 600, default: 10, msPerUnit: 1000 },
  idleStopMinutes: { key: 'mcpHost.servers.idleStopMinutes', min: 0, max: 1440, default: 15, msPerUnit: 60_000 },
  backgroundAfter: { key: 'mcpHost.tools.backgroundAfter', min: 0, max: 3600, default: 120, msPerUnit: 1000 },
  maxToolRounds: { key: 'mcpHost.chat.maxToolRounds', min: 1, max: 100, default: 16, integer: true },
  maxToolsPerRequest: { key: 'mcpHost.chat.maxToolsPerRequest', min: 2, max: 1000, default: 128, integer: true },
  descriptionCap: { key: 'mcpHost.tools.descriptionCap', min: 200, max: 100_000, default: 2048, integer: true },
  contextBudget: { key: 'mcpHost.tools.contextBudget', min: 0, max: 10_000_000, default: 0, integer: true },
  samplingRateLimit: { key: 'mcpHost.sampling.rateLimit', min: 1, max: 1000, default: 10, integer: true },
  samplingMaxTokens: { key: 'mcpHost.sampling.maxTokens', min: 1, max: 1_000_000, default: 4096, integer: true },
  elicitationRateLimit: { key: 'mcpHost.elicitation.rateLimit', min: 1, max: 1000, default: 10, integer: true },
} satisfies Record<string, NumericSetting>;

/** `value` if it is a number in range (whole where it must be); anything else is the default, with a warning. */
export function numericSetting(value: unknown, setting: NumericSetting, warn: (message: string) => void = () => undefined): number {
  if (value === undefined || value === null) return setting.default;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < setting.min || value > setting.max) {
    warn(`${setting.key}: ${JSON.stringify(value) ?? String(value)} is not a number from ${setting.min} to ${setting.max}; using ${setting.default}.`);
    return setting.default;
  }
  return setting.integer ? Math.floor(value) : value;
}
