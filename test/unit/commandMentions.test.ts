// Dialogs that name a command name it as the Command Palette shows it ("MCP Host: Manage Permissions…"): VS Code's
// built-in MCP support has commands of its own under "MCP:", so a wrong prefix sends a newcomer to the wrong place.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { samplingQuestionText } from '../../src/core/features/sampling/samplingQuestionText';
import { resetTrustQuestionText } from '../../src/core/presentation/permissionRows';
import { repoRoot } from './helpers';

/** Every command of package.json as the palette shows it: "Category: Title". */
const palette: string[] = (
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { commands: { title: string; category?: string }[] } }
).contributes.commands.map((c) => (c.category ? `${c.category}: ${c.title}` : c.title));

/** The mentions of "MCP: …" or "MCP Host: …" in `text` that are no command of the palette. */
function unknownMentions(text: string): string[] {
  return [...text.matchAll(/\bMCP(?: Host)?: /g)].filter((m) => !palette.some((p) => text.startsWith(p, m.index))).map((m) => text.slice(m.index, m.index + 40));
}

describe('commands named in dialogs', () => {
  it('the sampling question names Manage Permissions as the palette does', () => {
    const shown = samplingQuestionText({ serverName: 'everything', modelName: 'Demo model', detail: 'Messages:\n[user] hello' });
    assert.match(shown.detail, /Manage Permissions/);
    assert.deepStrictEqual(unknownMentions(`${shown.message}\n${shown.detail}`), []);
  });

  it('Reset Server Trust names Manage Permissions as the palette does', () => {
    const shown = resetTrustQuestionText({ servers: 3 });
    assert.match(shown.detail, /Manage Permissions/);
    assert.deepStrictEqual(unknownMentions(`${shown.message}\n${shown.detail}`), []);
  });
});
