import * as assert from 'assert';
import type { CallToolResult, ContentBlock, ResourceLink } from '@modelcontextprotocol/client';
import {
  contentToModelParts,
  promptToModelMessages,
  toolCallToMcp,
  toolErrorToModel,
  toolResultToModel,
  type ConversionOptions,
} from '../../src/core/features/chat/contentConversion.lazy';
import { base64Of, imageFromBase64, type ModelContentPart } from '../../src/core/features/languageModel';
import { contentToMarkdown, promptToMarkdown, toolResultToMarkdown } from '../../src/core/features/chat/contentMarkdown.lazy';
import { fenced } from '../../src/core/presentation/serverText';
import { getPrompt } from '../../src/core/features/prompts/promptRequests.lazy';
import { toolNameMap } from '../../src/core/features/tools/toolNames';
import { everythingServer } from './helpers';
import { createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
const noImages: ConversionOptions = { images: false };
const withImages: ConversionOptions = { images: true };
const texts = (parts: ModelContentPart[]) => parts.map((p) => (p.kind === 'text' ? p.text : `<${p.kind} ${p.mimeType} ${p.data.length}>`));

describe('content conversion: MCP to the model', () => {
  it('carries images as bytes, decoded from the base64 of MCP and encoded back to it', () => {
    const part = imageFromBase64('image/png', PNG);
    assert.ok(part.kind === 'image' && part.mimeType === 'image/png');
    assert.ok(part.data instanceof Uint8Array && !Buffer.isBuffer(part.data), 'plain bytes, as VS Code takes them');
    assert.deepStrictEqual([...part.data], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.strictEqual(base64Of(part.data), PNG);
  });

  it('keeps text, and gives images as data only to models that take them', async () => {
    const blocks: ContentBlock[] = [
      { type: 'text', text: 'hello' },
      { type: 'image', mimeType: 'image/png', data: PNG },
    ];
    assert.deepStrictEqual(texts(await contentToModelParts(blocks, withImages)), ['hello', '<image image/png 8>']);
    const without = texts(await contentToModelParts(blocks, noImages));
    assert.strictEqual(without[0], 'hello');
    assert.match(without[1], /Image \(image\/png, 8 bytes\): this model does not take images/);
    const image = (await contentToModelParts(blocks, withImages))[1];
    assert.ok(image.kind === 'image' && Buffer.from(image.data).equals(Buffer.from(PNG, 'base64')), 'bytes decoded');
  });

  it('describes audio, and turns embedded resources into context blocks', async () => {
    const parts = texts(
      await contentToModelParts(
        [
          { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
          { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A text' } },
          { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/zip', blob: 'AAAA' } },
          { type: 'resource', resource: { uri: 'file:///c.png', mimeType: 'image/png', blob: PNG } },
        ],
        withImages,
      ),
    );
    assert.match(parts[0], /Audio \(audio\/wav, 3 bytes\) is not included/);
    assert.strictEqual(parts[1], '<resource uri="file:///a.txt" mimeType="text/plain">\nA text\n</resource>');
    assert.match(parts[2], /Binary resource file:\/\/\/b\.bin \(application\/zip, 3 bytes\) is not included/);
    assert.strictEqual(parts[3], '<image image/png 8>');
  });

  it('resolves resource links through the provider, and keeps them as references when it cannot', async () => {
    const link: ContentBlock = { type: 'resource_link', uri: 'demo://r/1', name: 'r1', mimeType: 'text/plain', description: 'first' };
    const asked: string[] = [];
    const resolveLink = async (l: ResourceLink) => {
      asked.push(l.uri);
      return l.uri === 'demo://r/1' ? [{ uri: l.uri, mimeType: 'text/plain', text: 'contents of r1' }] : undefined;
    };
    assert.deepStrictEqual(texts(await contentToModelParts([link], { images: false, resolveLink })), [
      '<resource uri="demo://r/1" mimeType="text/plain">\ncontents of r1\n</resource>',
    ]);
    assert.deepStrictEqual(asked, ['demo://r/1']);
    const failing = { images: false, resolveLink: async () => Promise.reject(new Error('gone')) };
    assert.deepStrictEqual(texts(await contentToModelParts([link], failing)), ['[Resource link: r1 <demo://r/1> (text/plain — first)]']);
    assert.deepStrictEqual(texts(await contentToModelParts([link], noImages)), ['[Resource link: r1 <demo://r/1> (text/plain — first)]']);
  });

  it('turns prompt messages into alternating turns, with images only from the user', async () => {
    const messages = await promptToModelMessages(
      {
        messages: [
          { role: 'user', content: { type: 'text', text: 'one' } },
          { role: 'user', content: { type: 'image', mimeType: 'image/png', data: PNG } },
          { role: 'assistant', content: { type: 'image', mimeType: 'image/png', data: PNG } },
          { role: 'assistant', content: { type: 'text', text: 'two' } },
          { role: 'user', content: { type: 'text', text: 'three' } },
        ],
      },
      withImages,
    );
    assert.deepStrictEqual(
      messages.map((m) => `${m.role}: ${texts(m.parts as ModelContentPart[]).map((t) => t.slice(0, 20)).join(' | ')}`),
      ['user: one | <image image/png 8>', 'assistant: [Image (image/png, 8 | two', 'user: three'],
    );
  });

  it('gives tool results back with errors marked and structured content not duplicated', async () => {
    const ok = await toolResultToModel('c1', { content: [{ type: 'text', text: 'The sum of 1 and 2 is 3.' }] }, noImages);
    assert.deepStrictEqual(ok, { kind: 'toolResult', callId: 'c1', content: [{ kind: 'text', text: 'The sum of 1 and 2 is 3.' }] });

    const failed = await toolResultToModel('c2', { content: [{ type: 'text', text: 'no such city' }], isError: true }, noImages);
    assert.ok(failed.kind === 'toolResult');
    assert.deepStrictEqual(texts(failed.content), ['The tool reported an error:', 'no such city']);

    const structured = { temperature: 33 };
    const echoed = await toolResultToModel('c3', { content: [{ type: 'text', text: '{"temperature": 33}' }], structuredContent: structured }, noImages);
    assert.ok(echoed.kind === 'toolResult' && echoed.content.length === 1, 'structured content already sent as text');
    const only = await toolResultToModel('c4', { content: [], structuredContent: structured }, noImages);
    assert.ok(only.kind === 'toolResult');
    assert.deepStrictEqual(texts(only.content), ['Structured result:\n{\n  "temperature": 33\n}']);

    const empty = await toolResultToModel('c5', { content: [] } as CallToolResult, noImages);
    assert.ok(empty.kind === 'toolResult');
    assert.deepStrictEqual(texts(empty.content), ['(The tool returned no content.)']);
    assert.deepStrictEqual(toolErrorToModel('c6', 'denied'), { kind: 'toolResult', callId: 'c6', content: [{ kind: 'text', text: 'denied' }] });
  });
});

describe('content conversion: the model to MCP', () => {
  const names = toolNameMap([
    { serverId: 'ws::everything', serverName: 'everything', consentSubject: 'definition-hash', tool: { name: 'get-sum', inputSchema: { type: 'object' } } },
  ]);

  it('maps a tool call back to its server, MCP tool name and arguments', () => {
    const call = toolCallToMcp({ name: 'everything_get-sum', input: { a: 1, b: 2 } }, names);
    assert.ok(call.ok);
    assert.strictEqual(call.tool.serverId, 'ws::everything');
    assert.strictEqual(call.tool.tool.name, 'get-sum');
    assert.deepStrictEqual(call.arguments, { a: 1, b: 2 });
  });

  it('accepts input sent as a JSON string and no input at all', () => {
    const fromString = toolCallToMcp({ name: 'everything_get-sum', input: '{"a": 5, "b": 6}' }, names);
    assert.ok(fromString.ok);
    assert.deepStrictEqual(fromString.arguments, { a: 5, b: 6 });
    const none = toolCallToMcp({ name: 'everything_get-sum', input: undefined }, names);
    assert.ok(none.ok);
    assert.deepStrictEqual(none.arguments, {});
  });

  it('refuses unknown tools, invalid JSON and input that is not an object', () => {
    const error = (name: string, input: unknown) => {
      const r = toolCallToMcp({ name, input }, names);
      return r.ok ? 'ok' : r.error;
    };
    assert.match(error('get-sum', {}), /no tool named "get-sum"/);
    assert.match(error('everything_get-sum', '{a:'), /not valid JSON/);
    assert.match(error('everything_get-sum', [1, 2]), /must be a JSON object/);
    assert.match(error('everything_get-sum', 3), /must be a JSON object/);
  });
});

describe('content as Markdown for people', () => {
  it('fences server text with a fence longer than any backticks inside', () => {
    assert.strictEqual(fenced('a ``` b'), '````\na ``` b\n````');
    assert.strictEqual(fenced('plain', 'json'), '```json\nplain\n```');
    const md = contentToMarkdown([{ type: 'text', text: '[click](command:evil) <b>x</b>' }]);
    assert.strictEqual(md, '```\n[click](command:evil) <b>x</b>\n```', 'server text never becomes links or HTML');
  });

  it('shows small images inline, links where the provider leads, and errors and structured content', () => {
    const link: ResourceLink = { type: 'resource_link', uri: 'demo://r/1', name: 'r_1' };
    const md = contentToMarkdown([{ type: 'image', mimeType: 'image/png', data: PNG }, link], { linkTarget: (l) => `mcp-resource:${l.uri}` });
    assert.strictEqual(md, `![image](data:image/png;base64,${PNG})\n\nResource link: [r\\_1](mcp-resource:demo://r/1)`);
    assert.strictEqual(contentToMarkdown([link]), 'Resource link: r\\_1 `demo://r/1`');
    const result = toolResultToMarkdown({ content: [{ type: 'text', text: 'bad' }], isError: true, structuredContent: { a: 1 } });
    assert.strictEqual(result, '**The tool reported an error.**\n\n```\nbad\n```\n\nStructured content:\n\n```json\n{\n  "a": 1\n}\n```');
  });

  it('renders an expanded prompt message by message', () => {
    const md = promptToMarkdown({
      description: 'Weather',
      messages: [
        { role: 'user', content: { type: 'text', text: "What's weather in Paris?" } },
        { role: 'assistant', content: { type: 'text', text: 'Sunny.' } },
      ],
    });
    assert.strictEqual(md, "*Weather*\n\n**user**\n\n```\nWhat's weather in Paris?\n```\n\n**assistant**\n\n```\nSunny.\n```");
  });
});

describe('content conversion against server-everything', function () {
  this.timeout(60_000);
  let kit: Kit;

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), [entry('everything', stdio(process.execPath, [everythingServer]))], []);
    await waitForState(kit, 'everything', 'running');
  });

  after(() => kit.manager.disposeAsync());

  it('expands a prompt with an embedded resource into text and a context block', async () => {
    const id = kit.manager.servers()[0].id;
    const result = await getPrompt(kit.manager, id, 'resource-prompt', { resourceType: 'Text', resourceId: '2' });
    const [message] = await promptToModelMessages(result, noImages);
    const [intro, block] = texts(message.parts as ModelContentPart[]);
    assert.match(intro, /includes the Text resource with id: 2/);
    assert.match(block, /^<resource uri="demo:\/\/resource\/dynamic\/text\/2" mimeType="text\/plain">\nResource 2: /);
  });

  it('resolves the resource links a tool returns by reading them from the server', async () => {
    const id = kit.manager.servers()[0].id;
    const client = kit.manager.session(id);
    const result = (await client.callTool({ name: 'get-resource-links', arguments: { count: 2 } })) as CallToolResult;
    const part = await toolResultToModel('c', result, {
      images: false,
      resolveLink: async (l) => (await client.readResource(l.uri)).contents,
    });
    assert.ok(part.kind === 'toolResult');
    const all = texts(part.content).join('\n');
    assert.match(all, /<resource uri="demo:\/\/resource\/dynamic\/text\/2"/);
    assert.doesNotMatch(all, /Resource link:/, 'every link was resolved');
  });
});
