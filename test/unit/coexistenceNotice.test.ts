import * as assert from 'assert';
import { coexistenceNotice } from '../../src/core/presentation/coexistenceNotice';

describe("the Servers view's row about VS Code's built-in MCP support", () => {
  const shared = ['everything', 'basic'];

  it('says nothing without workspace servers, or when the user turned the built-in support off elsewhere', () => {
    assert.strictEqual(coexistenceNotice(true, false, undefined, []), undefined);
    assert.strictEqual(coexistenceNotice(false, false, undefined, shared), undefined);
    assert.strictEqual(coexistenceNotice(false, false, 'both', shared), undefined);
  });

  it('names the servers both would run until a choice is made, then shows the choice', () => {
    const open = coexistenceNotice(true, false, undefined, shared)!;
    assert.strictEqual(open.label, "VS Code's built-in MCP would run them too");
    assert.match(open.tooltip, /may also start everything, basic: each would run twice/);
    assert.strictEqual(coexistenceNotice(true, false, 'both', shared)!.description, 'kept both');
    const off = coexistenceNotice(false, true, 'mcpHost', shared)!;
    assert.strictEqual(off.label, "VS Code's built-in MCP: off in this workspace");
    assert.match(off.tooltip, /Click to turn VS Code's MCP support back on here/);
  });

  it("shows the gateway choice: MCP Host runs them, VS Code's agent uses them through the gateway", () => {
    const viaGateway = coexistenceNotice(true, false, 'gateway', shared)!;
    assert.strictEqual(viaGateway.label, "VS Code's agent uses them through MCP Host");
    assert.strictEqual(viaGateway.description, 'each runs once');
    assert.match(viaGateway.tooltip, /MCP Host runs everything, basic; VS Code starts none itself here/);
    assert.strictEqual(viaGateway.command, 'mcpHost.chooseBuiltinMcp');
  });
});
