import * as assert from 'assert';
import { foldForDialog, SHOW_ALL } from '../../src/core/presentation/foldedText';

describe('a long trust question folds behind "Show All", never into "…"', () => {
  it('shows a short question whole', () => {
    assert.deepStrictEqual(foldForDialog('a\nb'), { shown: 'a\nb', hiddenLines: 0 });
  });

  it('a question of 300 lines: the first lines whole, and a line that says how many more there are and how to read them', () => {
    const text = Array.from({ length: 300 }, (_v, i) => `VAR_${i}=value-${i}`).join('\n');
    const folded = foldForDialog(text, 30);
    assert.strictEqual(folded.hiddenLines, 270);
    assert.ok(folded.shown.startsWith(text.split('\n').slice(0, 30).join('\n')));
    assert.match(folded.shown, new RegExp(`270 more lines not shown here: choose "${SHOW_ALL}"`));
    assert.ok(!folded.shown.includes('…"') || folded.shown.split('…').length === 2, 'the only ellipsis is the button name');
  });

  it('never cuts a line: a line over the budget is shown whole or not at all', () => {
    const long = `NODE_OPTIONS=${'x'.repeat(5000)}`;
    const folded = foldForDialog(`first\n${long}\nlast`, 30, 4000);
    assert.strictEqual(folded.hiddenLines, 2);
    assert.ok(!folded.shown.includes('xxx'));
    assert.strictEqual(foldForDialog(long, 30, 4000).shown, long);
  });
});
