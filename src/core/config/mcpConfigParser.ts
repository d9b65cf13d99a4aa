// Reads an mcp.json (VS Code's format) into servers and inputs, with every problem placed exactly in the text.
import { getNodeValue, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { InputDefinition, ParsedConfig, RawServer, TextSpan, VariableDialect } from './serverDefinition';
import { variablesIn } from './variableSyntax';
import { Diagnostics, members, stringArrayProperty, stringProperty, type Member } from './configMembers';
import { devProperty } from './devProperty';
import { isValidVariableName } from './variableName';
import { mergeSandbox, parseSandbox } from './sandboxConfig';
import { parseRemoteServer } from './remoteProperties';

const SYNTAX_MESSAGES: Record<ReturnType<typeof printParseErrorCode>, string> = {
  InvalidSymbol: 'Not valid JSON here: is a quote missing? Names and text go in "double quotes"',
  InvalidNumberFormat: 'Not a valid number',
  PropertyNameExpected: 'A name in "double quotes" should come here',
  ValueExpected: 'A value should come here',
  ColonExpected: 'A colon (:) should come after the name',
  CommaExpected: 'A comma is missing before this',
  CloseBraceExpected: 'A closing brace } is missing',
  CloseBracketExpected: 'A closing bracket ] is missing',
  EndOfFileExpected: 'Nothing may follow the closing brace of the file',
  InvalidCommentToken: 'Not a valid comment',
  UnexpectedEndOfComment: 'This comment is never closed: */ is missing',
  UnexpectedEndOfString: 'This text is never closed: its closing quote is missing',
  UnexpectedEndOfNumber: 'This number is cut off',
  InvalidUnicode: 'Not a valid \\u escape',
  InvalidEscapeCharacter: 'Not a valid escape in text: write \\\\ for a backslash',
  InvalidCharacter: 'A line break inside text: close the quote first',
  '<unknown ParseErrorCode>': 'Not valid JSON here',
};

const TOP_LEVEL_KEYS = new Set(['servers', 'inputs', 'sandbox', '$schema']);
const SERVER_TYPES = ['stdio', 'http', 'sse'] as const;
/** The other names an mcpServers file gives them (Copilot CLI's `local`, Cursor's `streamable-http`). */
const SERVER_TYPE_ALIASES: Record<string, (typeof SERVER_TYPES)[number]> = { local: 'stdio', 'streamable-http': 'http', streamableHttp: 'http' };
/** `gallery` and `version`: where a server installed from a registry came from (VS Code writes them too). */
const ORIGIN_KEYS = ['gallery', 'version'];
/** A note for people (several hosts' files have one): read by nobody, worth no warning. */
const NOTE_KEYS = ['description'];
const STDIO_KEYS = new Set(['type', 'command', 'args', 'env', 'envFile', 'cwd', 'dev', 'sandboxEnabled', 'sandbox', 'disabled', ...ORIGIN_KEYS, ...NOTE_KEYS]);
const REMOTE_KEYS = new Set(['type', 'url', 'headers', 'headersHelper', 'auth', 'oauth', 'disabled', ...ORIGIN_KEYS, ...NOTE_KEYS]);
/** Other hosts' keys that change what a server may do: said in plain words, since they are not honoured here. */
const FOREIGN_KEYS: Record<string, string> = {
  tools: '(Copilot CLI: which of its tools to offer) is not honoured here: every tool of the server is offered.',
  disabledTools: '(tools to leave out) is not honoured here: every tool of the server is offered.',
  alwaysAllow: '(tools to run without asking) is never honoured from a file: each tool asks before it runs, and you can allow it there for good.',
  autoApprove: '(tools to run without asking) is never honoured from a file: each tool asks before it runs, and you can allow it there for good.',
};
const INPUT_TYPES = ['promptString', 'pickString', 'command'] as const;
const INPUT_KEYS = {
  promptString: new Set(['type', 'id', 'description', 'default', 'password']),
  pickString: new Set(['type', 'id', 'description', 'default', 'options']),
  command: new Set(['type', 'id', 'description', 'command', 'args']),
};

type InputStatus = 'valid' | 'invalid';

/**
 * How a file lists its servers: `vscode` (`servers` and `inputs`: .vscode/mcp.json, the profile's mcp.json),
 * `mcpServers` (the file Claude Code, Cursor and Copilot CLI share: a folder's .mcp.json, ~/.copilot/mcp-config.json),
 * or `either` (.github/mcp.json, written both ways: the file's own keys decide).
 */
export type ConfigFormat = VariableDialect | 'either';

/**
 * Reads a file's servers. In the `mcpServers` format there are no `inputs`; each server is read like ours, `${VAR}` /
 * `${VAR:-default}` are environment variables and `"type": "local"` is stdio (as those hosts read them).
 * `portable: true` is the `mcpServers` format.
 */
export function parseMcpConfig(text: string, options: { portable?: boolean; format?: ConfigFormat } = {}): ParsedConfig {
  const format: ConfigFormat = options.format ?? (options.portable ? 'mcpServers' : 'vscode');
  const errors: ParseError[] = [];
  // A file the user has just created (empty, or only comments) is an empty configuration, not a broken one.
  const root = parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: true });
  if (errors.length > 0) {
    // One fault makes the parser stumble on everything after it ("expected comma", "expected a value", …): only the
    // first error is the user's, the rest would bury it.
    const first = errors.reduce((a, b) => (b.offset < a.offset ? b : a));
    return {
      servers: [],
      inputs: [],
      diagnostics: [
        {
          message: SYNTAX_MESSAGES[printParseErrorCode(first.error)],
          span: { offset: first.offset, length: first.length },
          severity: 'error',
          code: 'syntax',
        },
      ],
      syntaxBroken: true,
      rejectedServers: [],
      dialect: format === 'mcpServers' ? 'mcpServers' : 'vscode',
    };
  }

  const d = new Diagnostics();
  const result: ParsedConfig = { servers: [], inputs: [], diagnostics: d.list, syntaxBroken: false, rejectedServers: [], dialect: format === 'mcpServers' ? 'mcpServers' : 'vscode' };
  if (!root) return result;
  if (root.type !== 'object') {
    d.wrongType(root, 'An mcp.json file', 'an object with "servers" and "inputs"');
    return result;
  }

  const top = members(root, d);
  if (format === 'mcpServers' || (format === 'either' && top.has('mcpServers') && !top.has('servers'))) {
    result.dialect = 'mcpServers';
    return parsePortable(text, top, d, result);
  }
  for (const [name, { key }] of top) {
    if (TOP_LEVEL_KEYS.has(name)) continue;
    const hint = name === 'mcpServers' ? ' (this is the Claude Desktop name: VS Code and this extension read "servers")' : '';
    d.add('warning', 'unknown-property', key, `Unknown property "${name}"${hint}; it is ignored.`);
  }

  const inputStatus = new Map<string, InputStatus>();
  const inputsNode = top.get('inputs')?.value;
  if (inputsNode) result.inputs = parseInputs(inputsNode, inputStatus, d);

  const serversNode = top.get('servers')?.value;
  if (serversNode) parseServers(text, serversNode, inputStatus, d, result, 'vscode');
  fileSandbox(top, d, result);
  d.list.sort((a, b) => a.span.offset - b.span.offset);
  return result;
}

/**
 * VS Code's place: one `sandbox` block for the file, the rules of each of its servers that sets `sandboxEnabled`
 * (read in an mcpServers file too, where Allow and Restart writes it), added to a server's own block.
 */
function fileSandbox(top: Map<string, Member>, d: Diagnostics, result: ParsedConfig): void {
  const sandbox = top.get('sandbox');
  const rules = sandbox && parseSandbox(sandbox.value, d);
  for (const { server } of result.servers) {
    if (server.type !== 'stdio') continue;
    const rulesOf = server.sandboxEnabled ? mergeSandbox(rules, server.sandbox) : undefined;
    if (rulesOf) server.sandbox = rulesOf;
    else delete server.sandbox;
  }
}

function parsePortable(text: string, top: Map<string, Member>, d: Diagnostics, result: ParsedConfig): ParsedConfig {
  for (const [name, { key }] of top) {
    if (name === 'mcpServers' || name === 'sandbox' || name === '$schema') continue;
    const hint = name === 'servers' ? ' (.mcp.json lists servers under "mcpServers"; "servers" is the name in .vscode/mcp.json)' : '';
    d.add('warning', 'unknown-property', key, `Unknown property "${name}"${hint}; it is ignored.`);
  }
  const serversNode = top.get('mcpServers')?.value;
  if (serversNode) parseServers(text, serversNode, new Map(), d, result, 'mcpServers');
  fileSandbox(top, d, result);
  d.list.sort((a, b) => a.span.offset - b.span.offset);
  return result;
}

function parseInputs(node: Node, status: Map<string, InputStatus>, d: Diagnostics): InputDefinition[] {
  if (node.type !== 'array') {
    d.wrongType(node, '"inputs"', 'an array');
    return [];
  }
  const inputs: InputDefinition[] = [];
  for (const item of node.children ?? []) {
    const before = d.errorCount;
    const parsed = parseInput(item, status, d);
    if (!parsed || status.has(parsed.id)) continue;
    const input = d.errorCount === before ? parsed.input : undefined;
    status.set(parsed.id, input ? 'valid' : 'invalid');
    if (input) inputs.push(input);
  }
  return inputs;
}

/** Returns the id whenever one is readable, so servers using a broken input get a precise message. */
function parseInput(node: Node, status: Map<string, InputStatus>, d: Diagnostics): { id: string; input?: InputDefinition } | undefined {
  if (node.type !== 'object') {
    d.wrongType(node, 'An input', 'an object');
    return undefined;
  }
  const m = members(node, d);
  const idNode = m.get('id')?.value;
  // Missing properties are shown on the id when there is one, else on the opening brace, as JSON schema validation does.
  const anchor: Node | TextSpan = idNode ?? { offset: node.offset, length: 1 };

  const id = stringProperty(m, 'id', '"id"', d);
  if (idNode && id === '') d.error('missing-input-property', idNode, 'The input "id" must not be empty.');
  if (id === undefined && !idNode) d.error('missing-input-property', anchor, 'The input has no "id".');
  if (id && status.has(id)) d.error('duplicate-input', idNode!, `Input "${id}" is declared more than once; only the first one is used.`);

  const description = stringProperty(m, 'description', '"description"', d);
  const typeNode = m.get('type')?.value;
  // A command input's prompt is the command's own: it needs no description.
  if (!m.has('description') && typeNode?.value !== 'command') d.error('missing-input-property', anchor, `Input${id ? ` "${id}"` : ''} has no "description" (it is the prompt shown to the user).`);

  let type: (typeof INPUT_TYPES)[number] | undefined;
  if (!typeNode) d.error('missing-input-property', anchor, `Input${id ? ` "${id}"` : ''} has no "type" ("promptString", "pickString" or "command").`);
  else if (typeNode.type !== 'string') d.wrongType(typeNode, 'The input "type"', 'a string');
  else if (!INPUT_TYPES.includes(typeNode.value)) {
    d.error('unknown-input-type', typeNode, `Unknown input type "${typeNode.value}": use "promptString", "pickString" or "command".`);
  } else type = typeNode.value;

  const def = stringProperty(m, 'default', '"default"', d);
  if (!type) return id ? { id } : undefined;

  for (const [name, { key }] of m) {
    if (!INPUT_KEYS[type].has(name)) d.add('warning', 'unknown-property', key, `Property "${name}" is not used by ${type} inputs; it is ignored.`);
  }

  let input: InputDefinition | undefined;
  if (type === 'command') {
    const command = stringProperty(m, 'command', '"command"', d);
    if (!m.has('command')) d.error('missing-input-property', anchor, `The command input${id ? ` "${id}"` : ''} has no "command" (the VS Code command whose result is its value).`);
    else if (command === '') d.error('missing-input-property', m.get('command')!.value, 'The input\'s "command" must not be empty.');
    const args = m.get('args')?.value;
    if (id && command) input = { type, id, command, ...(args ? { args: JSON.parse(JSON.stringify(getNodeValue(args))) as unknown } : {}) };
  } else if (type === 'promptString') {
    const password = m.get('password')?.value;
    if (password && password.type !== 'boolean') d.wrongType(password, '"password"', 'true or false');
    if (id && description !== undefined) input = { type, id, description, password: password?.value === true, ...(def !== undefined ? { default: def } : {}) };
  } else {
    const options = stringArrayProperty(m, 'options', '"options"', d);
    const optionsNode = m.get('options')?.value;
    if (!optionsNode) d.error('missing-options', anchor, `The pickString input${id ? ` "${id}"` : ''} has no "options" to pick from.`);
    else if (options?.length === 0) d.error('missing-options', optionsNode, 'A pickString input needs at least one option.');
    if (id && description !== undefined && options) input = { type, id, description, options, ...(def !== undefined ? { default: def } : {}) };
  }
  return id ? { id, input } : undefined;
}

function parseServers(text: string, node: Node, inputStatus: Map<string, InputStatus>, d: Diagnostics, result: ParsedConfig, dialect: VariableDialect): void {
  if (node.type !== 'object') {
    d.wrongType(node, '"servers"', 'an object mapping server names to servers');
    return;
  }
  const servers = members(node, d, (key, name) =>
    d.error('duplicate-name', key, `Server "${name}" is defined more than once; only the first definition is used.`),
  );
  for (const [name, { key, value }] of servers) {
    const before = d.errorCount;
    const server = parseServer(text, name, key, value, inputStatus, d, dialect);
    if (server && d.errorCount === before) result.servers.push({ name, server, nameSpan: { offset: key.offset, length: key.length } });
    else result.rejectedServers.push(name);
  }
}

function parseServer(text: string, name: string, key: Node, node: Node, inputStatus: Map<string, InputStatus>, d: Diagnostics, dialect: VariableDialect): RawServer | undefined {
  if (node.type !== 'object') {
    d.wrongType(node, `Server "${name}"`, 'an object');
    return undefined;
  }
  const m = members(node, d);
  const typeNode = m.get('type')?.value;
  let type: RawServer['type'];
  if (typeNode) {
    if (typeNode.type !== 'string') {
      d.wrongType(typeNode, '"type"', 'a string');
      return undefined;
    }
    const alias = Object.hasOwn(SERVER_TYPE_ALIASES, typeNode.value) ? SERVER_TYPE_ALIASES[typeNode.value] : undefined;
    if (!SERVER_TYPES.includes(typeNode.value) && !alias) {
      d.error('unknown-type', typeNode, `Unknown server type "${typeNode.value}": use "stdio", "http" or "sse".`);
      return undefined;
    }
    // Run as meant; in VS Code's own format, said too, since VS Code writes the other name.
    if (alias && dialect === 'vscode') d.add('warning', 'other-host-type', typeNode, `"${typeNode.value}" is another host's name for "${alias}" (Copilot CLI, Cursor): read as "${alias}".`);
    type = alias ?? typeNode.value;
  } else if (m.has('command')) type = 'stdio';
  else if (m.has('url')) type = 'http';
  else {
    d.error('missing-command', key, `Server "${name}" has neither a "command" to run nor a "url" to connect to.`);
    return undefined;
  }

  const known = type === 'stdio' ? STDIO_KEYS : REMOTE_KEYS;
  for (const [prop, { key: propKey }] of m) {
    if (known.has(prop)) continue;
    const foreign = Object.hasOwn(FOREIGN_KEYS, prop) ? FOREIGN_KEYS[prop] : undefined;
    if (foreign) d.add('warning', 'not-honoured', propKey, `"${prop}" ${foreign}`);
    else d.add('warning', 'unknown-property', propKey, `Property "${prop}" is not used by ${type} servers; it is ignored.`);
  }
  const disabledNode = m.get('disabled')?.value;
  if (disabledNode && disabledNode.type !== 'boolean') d.wrongType(disabledNode, '"disabled"', 'true or false');
  const disabled = disabledNode?.value === true ? { disabled: true } : {};

  const checkVariables = (n: Node): void => checkStringVariables(n, inputStatus, d, dialect);
  if (type === 'stdio') {
    const commandNode = m.get('command')?.value;
    const command = stringProperty(m, 'command', '"command"', d, checkVariables);
    if (!commandNode) d.error('missing-command', key, `Server "${name}" has no "command" to run.`);
    else if (command?.trim() === '') d.error('missing-command', commandNode, '"command" must not be empty.');
    const args = stringArrayProperty(m, 'args', '"args"', d, checkVariables);
    const env = envProperty(text, m, d, checkVariables);
    const envFile = stringProperty(m, 'envFile', '"envFile"', d, checkVariables);
    const cwd = stringProperty(m, 'cwd', '"cwd"', d, checkVariables);
    const dev = devProperty(m, d);
    const sandboxed = m.get('sandboxEnabled')?.value;
    if (sandboxed && sandboxed.type !== 'boolean') d.wrongType(sandboxed, '"sandboxEnabled"', 'true or false');
    // Its own rules (what Import Servers… carries over from another file), added to the file's.
    const ownNode = m.get('sandbox')?.value;
    const own = ownNode && parseSandbox(ownNode, d);
    if (command === undefined) return undefined;
    return { type, command, args: args ?? [], env, ...(envFile !== undefined ? { envFile } : {}), ...(cwd !== undefined ? { cwd } : {}), ...(dev ? { dev } : {}), ...(sandboxed?.value === true ? { sandboxEnabled: true } : {}), ...(own ? { sandbox: own } : {}), ...disabled };
  }

  return parseRemoteServer(m, { key, name, type, disabled: disabled.disabled === true }, d, checkVariables, dialect);
}

function checkStringVariables(node: Node, inputStatus: Map<string, InputStatus>, d: Diagnostics, dialect: VariableDialect): void {
  const seen = new Set<string>();
  for (const v of variablesIn(node.value as string, dialect)) {
    if (seen.has(v.text)) continue;
    seen.add(v.text);
    if (v.ref.kind === 'input') {
      const status = inputStatus.get(v.ref.id);
      if (status === 'valid') continue;
      const why = status === 'invalid' ? 'has errors in "inputs"' : 'is not declared in "inputs"';
      d.error('unknown-input', node, `Input "${v.ref.id}" used in ${v.text} ${why}.`);
    } else if (v.ref.kind === 'unsupported') {
      d.add('warning', 'unsupported-variable', node, `Variable ${v.text} is not supported; the server will fail to start.`);
    }
  }
}

function envProperty(text: string, m: Map<string, Member>, d: Diagnostics, check: (n: Node) => void): Record<string, string | null> {
  const node = m.get('env')?.value;
  const env: Record<string, string | null> = {};
  if (!node) return env;
  if (node.type !== 'object') {
    d.wrongType(node, '"env"', 'an object');
    return env;
  }
  for (const [name, { key, value }] of members(node, d)) {
    // The child reads "A=B" as the variable A: a key holding "=" would set another variable than the one written.
    if (!isValidVariableName(name)) {
      d.error('invalid-env-name', key, `${JSON.stringify(name)} is not a valid environment variable name (it holds "=" or a control character, or is empty): the process would see another variable.`);
      continue;
    }
    switch (value.type) {
      case 'string':
        check(value);
        env[name] = value.value as string;
        break;
      case 'number':
        // The number as written: 1.0 stays "1.0" rather than becoming "1".
        env[name] = text.slice(value.offset, value.offset + value.length);
        break;
      case 'null':
        env[name] = null;
        break;
      default:
        d.wrongType(value, `"env" value "${name}"`, 'a string, a number or null');
    }
  }
  return env;
}

