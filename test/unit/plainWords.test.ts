// Settings as a newcomer reads them in the Settings editor: what each does, in plain words. Protocol terms (message
// names, capability and field names, dated protocol revisions) belong in the README's reference parts and trace logs.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers';

const JARGON: [RegExp, string][] = [
  [/server\/discover/, 'a protocol message name'],
  [/`initialize`|answer initialize/, 'a protocol message name'],
  [/`ping`/, 'a protocol message name'],
  [/dynamic client registration/i, 'an OAuth term'],
  [/\bcapabilit(y|ies)\b/i, 'a protocol term'],
  [/includeContext|toolChoice|`tools`|sampling\.tools/, 'a request field'],
  [/JSON-RPC/, 'a protocol term'],
  [/\b20\d\d-\d\d-\d\d\b/, 'a protocol revision'],
  [/\(`sampling`\)|\(`elicitation`\)/, 'a protocol feature name'],
];

describe('Plain words in the settings', () => {
  it('no setting description speaks protocol jargon', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, Record<string, unknown>> } | { properties: Record<string, Record<string, unknown>> }[] } };
    const sections = ([] as { properties: Record<string, Record<string, unknown>> }[]).concat(pkg.contributes.configuration);
    const found: string[] = [];
    for (const { properties } of sections)
      for (const [key, setting] of Object.entries(properties)) {
        const texts = [setting.markdownDescription, setting.description, ...((setting.enumDescriptions as string[] | undefined) ?? []), ...((setting.markdownEnumDescriptions as string[] | undefined) ?? [])].filter((t): t is string => typeof t === 'string');
        for (const text of texts) for (const [pattern, what] of JARGON) if (pattern.test(text)) found.push(`${key}: ${what} (${pattern.exec(text)![0]})`);
      }
    assert.deepStrictEqual(found, []);
  });
});
