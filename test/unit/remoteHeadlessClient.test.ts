// The headless client the conformance suite drives: arguments built from input schemas, and a whole run (connect,
// sign in, list, call every tool) against the OAuth fixture server.
import * as assert from 'assert';
import { main } from '../../src/cli/conformanceClient';
import { argumentsFor, sampleValue } from '../../src/cli/toolArguments';
import { freePort } from './hostTestKit';
import { startOAuthFixture } from './remoteTestKit';

describe('headless client', function () {
  this.timeout(30_000);

  it('builds arguments for the required properties from defaults, enums, formats and bounds', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        mail: { type: 'string', format: 'email' },
        code: { type: 'string', minLength: 6 },
        count: { type: 'integer', minimum: 2.5 },
        ratio: { type: 'number', maximum: 0.5 },
        mode: { type: 'string', enum: ['fast', 'slow'] },
        level: { type: 'string', default: 'high' },
        flag: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        nested: { type: 'object', properties: { id: { type: 'integer' }, note: { type: 'string' } }, required: ['id'] },
        either: { anyOf: [{ type: 'number' }, { type: 'string' }] },
        optional: { type: 'string' },
      },
      required: ['name', 'mail', 'code', 'count', 'ratio', 'mode', 'level', 'flag', 'tags', 'nested', 'either'],
    };
    assert.deepStrictEqual(argumentsFor(schema), {
      name: 'test',
      mail: 'user@example.com',
      code: 'testxx',
      count: 3,
      ratio: 0.5,
      mode: 'fast',
      level: 'high',
      flag: true,
      tags: ['test'],
      nested: { id: 1 },
      either: 1,
    });
    assert.deepStrictEqual(argumentsFor({ type: 'object' }), {});
    assert.strictEqual(sampleValue({ type: ['null', 'string'] }), 'test');
  });

  it('signs in, lists and calls every tool of a server, and exits 0', async () => {
    const server = await startOAuthFixture();
    try {
      const lines: string[] = [];
      const code = await main([server.url], {}, (l) => lines.push(l));
      const output = lines.join('\n');
      assert.strictEqual(code, 0, output);
      assert.match(output, /Signed in as alice@example\.com/);
      assert.match(output, /tool whoami\(\{\}\) -> ok/);
      assert.match(output, /tool echo\(\{"text":"test"\}\) -> ok/);
      assert.strictEqual((await server.stats()).authorizations, 1);
    } finally {
      await server.stop();
    }
  });

  it('exits 1 with the reason when it cannot connect, and 2 on bad usage', async () => {
    const lines: string[] = [];
    assert.strictEqual(await main(['--timeout', '5', `http://127.0.0.1:${await freePort()}/mcp`], {}, (l) => lines.push(l)), 1);
    assert.match(lines.join('\n'), /error: not connected: Cannot connect to 127\.0\.0\.1:\d+: connection refused/);
    assert.strictEqual(await main([], {}, () => undefined), 2);
  });
});
