import * as assert from 'assert';
import { NUMERIC_SETTINGS, numericSetting, type NumericSetting } from '../../src/core/config/numericSettings';

describe('numeric settings', () => {
  const timeout = NUMERIC_SETTINGS.requestTimeout;

  it('a workspace writing NaN, a string, a negative or a huge timeout gets the default and a warning, never an overflowing timer', () => {
    for (const bad of [NaN, Infinity, -5, 0, 1e12, '60', true, {}]) {
      const warnings: string[] = [];
      assert.strictEqual(numericSetting(bad, timeout, (w) => warnings.push(w)), 60, String(bad));
      assert.strictEqual(warnings.length, 1, `warned about ${String(bad)}`);
      assert.match(warnings[0], /mcpHost\.requestTimeout/);
    }
    // The largest accepted duration still fits setTimeout (2^31-1 ms); every duration says its unit.
    for (const s of Object.values(NUMERIC_SETTINGS) as NumericSetting[]) {
      if (/[Tt]imeout|[Ii]nterval|Minutes|Seconds/.test(s.key)) assert.ok(s.msPerUnit, `${s.key} is a duration: its unit is given`);
      if (s.msPerUnit) assert.ok(s.max * s.msPerUnit < 2 ** 31 - 1, s.key);
    }
  });

  it('keeps values in range, whole where a count is meant, and unset means the default without a warning', () => {
    const warnings: string[] = [];
    assert.strictEqual(numericSetting(90, timeout, (w) => warnings.push(w)), 90);
    assert.strictEqual(numericSetting(2.5, timeout), 2.5);
    assert.strictEqual(numericSetting(7.9, NUMERIC_SETTINGS.maxToolRounds), 7);
    assert.strictEqual(numericSetting(undefined, timeout, (w) => warnings.push(w)), 60);
    assert.deepStrictEqual(warnings, []);
  });
});
