// replaceItems: suggestions that come again keep the highlight where the user moved it, and follow the best one when
// the user has not moved it. The pick is a stand-in holding what VS Code's QuickPick would (items, activeItems).
import * as assert from 'assert';
import type * as vscode from 'vscode';
import { replaceItems } from '../../src/vscode/dialogs/quickPickItems';

interface Item extends vscode.QuickPickItem {
  value: string;
}

/** A quick pick as the workbench keeps it: setting items highlights the first one. */
function fakePick(labels: string[]) {
  let items: Item[] = [];
  const pick = {
    itemSets: 0,
    activeItems: [] as Item[],
    get items() {
      return items;
    },
    set items(next: Item[]) {
      items = next;
      pick.itemSets++;
      pick.activeItems = next.slice(0, 1);
    },
  };
  pick.items = labels.map(item);
  pick.itemSets = 0;
  return pick;
}
const item = (value: string): Item => ({ label: value, value });
const key = (i: Item) => i.value;
const replace = (pick: ReturnType<typeof fakePick>, labels: string[]) => replaceItems(pick as unknown as vscode.QuickPick<Item>, labels.map(item), key);

describe('replaceItems (quick picks refreshed while open)', () => {
  it('does not set the same list again, so the highlight stays where the user moved it', () => {
    const pick = fakePick(['Alice', 'Bob', 'Charlie']);
    pick.activeItems = [pick.items[1]];
    replace(pick, ['Alice', 'Bob', 'Charlie']);
    assert.strictEqual(pick.itemSets, 0);
    assert.strictEqual(pick.activeItems[0].value, 'Bob');
  });

  it('keeps a moved highlight on its item in a new list that still holds it', () => {
    const pick = fakePick(['Alice', 'Bob', 'Charlie']);
    pick.activeItems = [pick.items[1]];
    replace(pick, ['Bob', 'Charlie', 'Dave', 'B']);
    assert.strictEqual(pick.itemSets, 1);
    assert.strictEqual(pick.activeItems[0].value, 'Bob');
  });

  it('follows the new first item when the user had not moved the highlight, or the moved-to item is gone', () => {
    const pick = fakePick(['Alice', 'Bob']);
    replace(pick, ['Zoe', 'Alice']);
    assert.strictEqual(pick.activeItems[0].value, 'Zoe', 'not moved: the best suggestion');
    pick.activeItems = [pick.items[1]];
    replace(pick, ['Carl', 'Dave']);
    assert.strictEqual(pick.activeItems[0].value, 'Carl', 'the moved-to item is gone');
  });
});
