// The MCP server of `npm run bench`, the same for our host and for the bare SDK client: a few tools, prompts and
// resources (a start lists them all), `echo`, a big resource, many resources in pages, and a stderr flood on demand.
// Newline-delimited JSON-RPC without an SDK (test/fixtures/servers/lib), so it costs both clients the same.
//
// Env:
//   BENCH_RESOURCES   how many resources bench://item/1..N it lists (default 3)
//   BENCH_PAGE_SIZE   resources per resources/list page (default 100)
//   BENCH_BIG_BYTES   size of the text resource bench://big (default 10 MiB)
// Tools:
//   echo {text}             answers its text
//   stderr {mb, lineBytes}  writes `mb` MB of "x" to stderr, a newline after every `lineBytes` bytes (0: none), then
//                           "\nBENCH_STDERR_END\n"; answers once stderr took it all
import { envInt, paginate, serve, textResult } from '../test/fixtures/servers/lib/jsonrpc.mjs';

const resourceCount = envInt('BENCH_RESOURCES', 3);
const pageSize = envInt('BENCH_PAGE_SIZE', 100);
const bigBytes = envInt('BENCH_BIG_BYTES', 10 * 1024 * 1024);
const STDERR_END = 'BENCH_STDERR_END';

const tools = [
  { name: 'echo', description: 'Answers its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  {
    name: 'stderr',
    description: 'Floods stderr.',
    inputSchema: { type: 'object', properties: { mb: { type: 'number' }, lineBytes: { type: 'number' } } },
  },
];
const prompts = [{ name: 'greet', description: 'Greets someone.', arguments: [{ name: 'name', required: true }] }];
const resources = Array.from({ length: resourceCount }, (_, i) => ({ uri: `bench://item/${i + 1}`, name: `item-${i + 1}`, mimeType: 'text/plain' }));
const templates = [{ uriTemplate: 'bench://item/{id}', name: 'item' }];
let big;

function write(stream, data) {
  return new Promise((resolve) => (stream.write(data) ? resolve() : stream.once('drain', resolve)));
}

async function flood(mb, lineBytes) {
  const total = Math.round(mb * 1024 * 1024);
  const line = lineBytes > 0 ? 'x'.repeat(lineBytes - 1) + '\n' : undefined;
  const chunk = Buffer.from(line ? line.repeat(Math.max(1, Math.floor(65536 / line.length))) : 'x'.repeat(65536));
  for (let sent = 0; sent < total; sent += chunk.length) await write(process.stderr, chunk.subarray(0, Math.min(chunk.length, total - sent)));
  await write(process.stderr, `\n${STDERR_END}\n`);
}

serve({
  name: 'bench-server',
  capabilities: { tools: {}, prompts: {}, resources: {} },
  requests: {
    'tools/list': () => ({ tools }),
    'tools/call': async ({ name, arguments: args = {} }) => {
      if (name === 'echo') return textResult(String(args.text));
      if (name === 'stderr') {
        await flood(args.mb ?? 20, args.lineBytes ?? 0);
        return textResult('flooded');
      }
      return textResult(`unknown tool ${name}`, { isError: true });
    },
    'prompts/list': () => ({ prompts }),
    'prompts/get': ({ arguments: args = {} }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${args.name}` } }] }),
    'resources/list': ({ cursor } = {}) => {
      const { page, nextCursor } = paginate(resources, cursor, pageSize);
      return nextCursor ? { resources: page, nextCursor } : { resources: page };
    },
    'resources/templates/list': () => ({ resourceTemplates: templates }),
    'resources/read': ({ uri }) => {
      if (uri === 'bench://big') {
        big ??= 'x'.repeat(bigBytes);
        return { contents: [{ uri, mimeType: 'text/plain', text: big }] };
      }
      return { contents: [{ uri, mimeType: 'text/plain', text: uri }] };
    },
  },
});
