// How sampling and elicitation settings combine the user's values with a workspace's: a workspace only tightens.
import * as assert from 'assert';
import type { ServerDefinition } from '../../src/core/config/serverDefinition';
import { NUMERIC_SETTINGS } from '../../src/core/config/numericSettings';
import { readSamplingSettings } from '../../src/core/features/sampling/samplingSettings';
import { disabledFor, tightestNumber, type SettingLevels, type SettingsSection } from '../../src/core/config/tightenedSettings';

/** A configuration section as VS Code's `inspect` reports it: each key's value per level. */
function section(values: Record<string, SettingLevels<unknown>>): SettingsSection {
  return { inspect: <T>(key: string) => values[key] as SettingLevels<T> | undefined };
}

const server = { name: 'everything' } as ServerDefinition;
const other = { name: 'other' } as ServerDefinition;

describe('sampling and elicitation settings: user and workspace levels', () => {
  it("a workspace's disabledServers adds to the user's, never replaces it", () => {
    const userOffForAll = section({ disabledServers: { defaultValue: [], globalValue: ['*'], workspaceValue: [] } });
    assert.strictEqual(disabledFor(userOffForAll, server), true, 'an empty workspace list does not lift the user\'s "*"');
    const folderEmpty = section({ disabledServers: { defaultValue: [], globalValue: ['everything'], workspaceFolderValue: [] } });
    assert.strictEqual(disabledFor(folderEmpty, server), true, 'nor does an empty folder list');
    const workspaceAdds = section({ disabledServers: { defaultValue: [], globalValue: ['other'], workspaceValue: ['everything'] } });
    assert.strictEqual(disabledFor(workspaceAdds, server), true);
    assert.strictEqual(disabledFor(workspaceAdds, other), true);
    const none = section({ disabledServers: { defaultValue: [] } });
    assert.strictEqual(disabledFor(none, server), false);
    assert.strictEqual(readSamplingSettings(userOffForAll, server).enabled, false);
  });

  it('tools in sampling: on by default; the user or a workspace can turn them off, a workspace cannot turn them on', () => {
    assert.strictEqual(readSamplingSettings(section({ allowTools: { defaultValue: true } }), server).allowTools, true);
    assert.strictEqual(readSamplingSettings(section({ allowTools: { defaultValue: true, workspaceValue: false } }), server).allowTools, false);
    assert.strictEqual(readSamplingSettings(section({ allowTools: { defaultValue: true, globalValue: false, workspaceFolderValue: true } }), server).allowTools, false);
  });

  it('model pins come from the user only', () => {
    const fromWorkspace = section({ models: { defaultValue: {}, workspaceValue: { everything: ['expensive-model'] } } });
    assert.deepStrictEqual(readSamplingSettings(fromWorkspace, server).pinnedModels, []);
    const replaced = section({ models: { defaultValue: {}, globalValue: { everything: ['gpt-4o-mini'] }, workspaceFolderValue: { everything: ['o1'] } } });
    assert.deepStrictEqual(readSamplingSettings(replaced, server).pinnedModels, ['gpt-4o-mini']);
    const single = section({ models: { globalValue: { everything: 'copilot/gpt-4o' } } });
    assert.deepStrictEqual(readSamplingSettings(single, server).pinnedModels, ['copilot/gpt-4o']);
  });

  it('numbers and the context scope: the tightest of the user and the workspace', () => {
    const c = section({
      rateLimit: { defaultValue: 10, globalValue: 5, workspaceValue: 100 },
      maxTokens: { defaultValue: 4096, workspaceValue: 512 },
      allowedContext: { defaultValue: 'none', globalValue: 'allServers', workspaceFolderValue: 'thisServer' },
    });
    assert.deepStrictEqual(readSamplingSettings(c, server), {
      enabled: true,
      rateLimitPerMinute: 5,
      maxTokens: 512,
      pinnedModels: [],
      allowedContext: 'thisServer',
      allowTools: true,
      reviewAnswers: false,
    });
    assert.strictEqual(tightestNumber(section({}), 'rateLimit', NUMERIC_SETTINGS.samplingRateLimit), 10, 'nothing set: the fallback');
    assert.strictEqual(tightestNumber(section({ rateLimit: { globalValue: 0, workspaceValue: 2.7 } }), 'rateLimit', NUMERIC_SETTINGS.samplingRateLimit), 2);
  });
});
