import * as assert from 'assert';
import { assignArguments, parsePromptInvocation, quoteArgument, type PromptInvocation } from '../../src/core/features/prompts/promptArguments';
import { findPrompt, listPrompts } from '../../src/core/features/prompts/promptCatalog';
import { emptyFeatures, type Prompt, type ServerInfo, type ServerState } from '../../src/core/host/serverInfo';
import { workspaceScope } from './hostTestKit';

function parse(text: string): PromptInvocation {
  const r = parsePromptInvocation(text);
  if (!r.ok) throw new Error(`unexpected parse error: ${r.error}`);
  return r.invocation;
}

function server(name: string, prompts: Prompt[], state: ServerState = { kind: 'running' }): ServerInfo {
  return {
    id: `file:///ws::${name}`,
    name,
    scope: workspaceScope(),
    definition: { type: 'stdio', command: 'x', args: [] } as never,
    state,
    features: { ...emptyFeatures(), prompts },
    crashCount: 0,
  };
}

describe('/prompt argument grammar', () => {
  it('reads the prompt name and key=value pairs', () => {
    assert.deepStrictEqual(parse('everything.args-prompt city=Paris state=IDF'), {
      target: 'everything.args-prompt',
      named: { city: 'Paris', state: 'IDF' },
      positional: [],
    });
  });

  it('takes quoted values with spaces, either quote, quotes inside a word, and escapes', () => {
    assert.deepStrictEqual(parse(`s.p city="New York" note='it''s' q="say \\"hi\\"" path=C:\\\\dir mixed=a"b c"d`).named, {
      city: 'New York',
      note: 'its',
      q: 'say "hi"',
      path: 'C:\\dir',
      mixed: 'ab cd',
    });
    assert.deepStrictEqual(parse(`s.p 'single "double" inside'`).positional, ['single "double" inside']);
  });

  it('splits key and value only at an unquoted "=": quoted ones belong to the value', () => {
    const inv = parse(`s.p "a=b" expr="x=1" k==v`);
    assert.deepStrictEqual(inv.positional, ['a=b']);
    assert.deepStrictEqual(inv.named, { expr: 'x=1', k: '=v' });
  });

  it('keeps empty values, and an empty text gives an empty target', () => {
    assert.deepStrictEqual(parse('s.p city= other=""').named, { city: '', other: '' });
    assert.deepStrictEqual(parse('   '), { target: '', named: {}, positional: [] });
  });

  it('quotes a whole target whose server name has spaces', () => {
    assert.strictEqual(parse(`"my server.greet" name=Ann`).target, 'my server.greet');
  });

  it('reports unterminated quotes, missing names and repeated arguments', () => {
    const errors = ['s.p city="Paris', "s.p city='Paris", 's.p =Paris', 's.p a=1 a=2'].map((t) => {
      const r = parsePromptInvocation(t);
      return r.ok ? 'parsed' : r.error;
    });
    assert.match(errors[0], /Unterminated double quote at position 10/);
    assert.match(errors[1], /Unterminated single quote/);
    assert.match(errors[2], /no argument name/);
    assert.match(errors[3], /"a" is given twice/);
  });

  it('round-trips values through quoteArgument', () => {
    for (const v of ['plain', 'two words', 'quote"d', "it's", 'a=b', 'back\\slash', '']) {
      assert.deepStrictEqual(parse(`s.p k=${quoteArgument(v)}`).named, { k: v }, v);
    }
    assert.strictEqual(quoteArgument('Paris'), 'Paris');
  });

  it('assigns named values, then bare values in declared order, and lists what is missing or unknown', () => {
    const prompt = {
      arguments: [
        { name: 'department', required: true },
        { name: 'name', required: true },
        { name: 'note', required: false },
      ],
    };
    assert.deepStrictEqual(assignArguments(prompt, parse('s.p name=Bob Engineering')), {
      values: { name: 'Bob', department: 'Engineering' },
      missing: [],
      optional: [{ name: 'note', required: false }],
      unknown: [],
      extra: [],
    });
    const partial = assignArguments(prompt, parse('s.p colour=red'));
    assert.deepStrictEqual(partial.missing.map((a) => a.name), ['department', 'name']);
    assert.deepStrictEqual(partial.unknown, ['colour']);
    assert.deepStrictEqual(assignArguments({}, parse('s.p one two')).extra, ['one', 'two']);
  });
});

describe('finding the prompt a /prompt names', () => {
  const args = { name: 'args-prompt', arguments: [{ name: 'city', required: true }] };
  const servers = [
    server('everything', [args, { name: 'simple-prompt' }]),
    server('basic', [{ name: 'greet' }, { name: 'simple-prompt' }]),
    server('my.dotted', [{ name: 'x.y' }]),
    server('stopped', [], { kind: 'stopped' }),
  ];

  it('finds server.prompt, also when names contain dots', () => {
    const r = findPrompt('everything.args-prompt', servers);
    assert.ok(r.ok && r.entry.serverName === 'everything' && r.entry.prompt.name === 'args-prompt');
    const dotted = findPrompt('my.dotted.x.y', servers);
    assert.ok(dotted.ok && dotted.entry.serverName === 'my.dotted' && dotted.entry.prompt.name === 'x.y');
  });

  it('finds a bare prompt name that only one server has, and asks to qualify an ambiguous one', () => {
    const r = findPrompt('greet', servers);
    assert.ok(r.ok && r.entry.serverName === 'basic');
    const amb = findPrompt('simple-prompt', servers);
    assert.ok(!amb.ok);
    assert.match(amb.message, /`everything\.simple-prompt` or `basic\.simple-prompt`/);
  });

  it('explains what exists when nothing matches', () => {
    const msg = (t: string) => {
      const r = findPrompt(t, servers);
      return r.ok ? 'found' : r.message;
    };
    assert.match(msg('everything.nope'), /Server "everything" has no prompt "nope"\. Its prompts: `args-prompt`, `simple-prompt`/);
    assert.match(msg('stopped.x'), /Server "stopped" is stopped: start it/);
    assert.match(msg('ghost.p'), /No server "ghost"\. Available prompts: `everything\.args-prompt`/);
    assert.match(msg('nothing'), /No prompt "nothing"/);
    assert.match(findPrompt('x', []).ok ? '' : (findPrompt('x', []) as { message: string }).message, /No MCP server is running/);
  });

  it('lists only running servers’ prompts', () => {
    assert.deepStrictEqual(
      listPrompts(servers).map((e) => `${e.serverName}.${e.prompt.name}`),
      ['everything.args-prompt', 'everything.simple-prompt', 'basic.greet', 'basic.simple-prompt', 'my.dotted.x.y'],
    );
  });
});
