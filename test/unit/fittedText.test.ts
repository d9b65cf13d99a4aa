// Text that must fit where VS Code cuts it without a word: placeholders, notifications; and form fields whose
// required mark reads as words ("a (required)"), not as "a *" that reads like multiplication.
import * as assert from 'assert';
import { importSummary, nameList, NOTIFICATION_MAX, PLACEHOLDER_MAX, placeholderText } from '../../src/core/presentation/fittedText';
import { fieldLabel } from '../../src/core/presentation/formText';

describe('text that fits', () => {
  it('says a required field is required in words', () => {
    assert.strictEqual(fieldLabel({ title: 'a', required: true }), 'a (required)');
    assert.strictEqual(fieldLabel({ title: 'b', required: false }), 'b');
  });

  it('keeps placeholders to what the quick input shows, on one line', () => {
    const long = `path (required) — ${'The file to read, relative to the workspace folder. '.repeat(4)}\nsecond line`;
    const shown = placeholderText(long);
    assert.ok(shown.length <= PLACEHOLDER_MAX, shown);
    assert.ok(!shown.includes('\n'));
    assert.strictEqual(placeholderText('Run which MCP prompt?'), 'Run which MCP prompt?');
  });

  it('sums up an import in a notification that fits, however many servers', () => {
    const many = Array.from({ length: 12 }, (_, i) => `server-with-a-long-name-${i}`);
    const text = importSummary(many, ['x', 'y', 'z'], '.vscode/mcp.json');
    assert.strictEqual(text, 'MCP Host: imported server-with-a-l…, server-with-a-l… and 10 more into .vscode/mcp.json (3 already there, left alone).');
    assert.ok(text.length <= NOTIFICATION_MAX, `${text.length}`);
    assert.strictEqual(importSummary(['a'], [], '.vscode/mcp.json'), 'MCP Host: imported a into .vscode/mcp.json.');
    assert.strictEqual(importSummary([], ['a'], 'mcp.json'), 'MCP Host: imported nothing into mcp.json (1 already there, left alone).');
    assert.strictEqual(nameList(['a', 'b', 'c']), 'a, b and c');
  });
});
