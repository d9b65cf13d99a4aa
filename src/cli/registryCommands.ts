// `mcp-host search` and `mcp-host add`: the registry on the command line. Registry text reaches the terminal only as
// plain text (no control characters, so no escape sequences); `add` writes the same entry the editor writes.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeEntry } from '../core/features/mcpRegistry/describeEntry';
import type { InputDefinition } from '../core/config/serverDefinition';
import { firstLine, plainText, truncate } from '../core/presentation/serverText';
import { vscodeUserDir } from '../core/config/foreignConfigs';
import { McpJsonWriteError, writeServer } from '../core/config/mcpJsonWriter';
import { DEFAULT_REGISTRY_URL, RegistryClient, RegistryError } from '../core/features/mcpRegistry/registryClient';
import { answerQuestions, MappingError, planInstall, type InstallPlan } from '../core/features/mcpRegistry/serverJsonMapping';

export interface RegistryTerminal {
  ask(question: string, options?: { secret?: boolean }): Promise<string | undefined>;
  say(line: string): void;
  print(text: string): void;
  /** A person at a terminal on stdin: `add` may ask the required values. */
  interactive?: boolean;
}

export interface RegistryCommandOptions {
  registry?: string;
  user: boolean;
  json: boolean;
  config?: string;
  cursor?: string;
  /** Asks one input on the terminal (the CLI's own prompt). */
  askInput(input: InputDefinition): Promise<string | undefined>;
  /** `--yes`: `add --user` writes without asking first. */
  yes?: boolean;
}

/**
 * The user's own mcp.json, as the extension keeps it (its global storage in VS Code's user data); `MCP_HOST_USER_CONFIG`
 * names another.
 */
export function userConfigPath(env: NodeJS.ProcessEnv, platform = process.platform, home = os.homedir()): string {
  return env.MCP_HOST_USER_CONFIG || path.join(vscodeUserDir(env, platform, home), 'globalStorage', 'mcp-host.mcp-host', 'mcp.json');
}

const text = (value: string, max = 200) => truncate(plainText(value), max);

export async function runRegistryCommand(command: 'search' | 'add', args: string[], options: RegistryCommandOptions, env: NodeJS.ProcessEnv, cwd: string, terminal: RegistryTerminal): Promise<number> {
  let client: RegistryClient;
  try {
    client = new RegistryClient(options.registry ?? env.MCP_HOST_REGISTRY ?? DEFAULT_REGISTRY_URL);
  } catch (e) {
    terminal.say((e as Error).message);
    return 2;
  }
  try {
    return command === 'search' ? await search(client, args.join(' '), options, terminal) : await add(client, args, options, env, cwd, terminal);
  } catch (e) {
    if (e instanceof RegistryError) {
      terminal.say(text(e.message, 400));
      return 1;
    }
    throw e;
  }
}

async function search(client: RegistryClient, query: string, options: RegistryCommandOptions, terminal: RegistryTerminal): Promise<number> {
  const page = await client.search(query, { cursor: options.cursor, limit: 30 });
  if (options.json) {
    terminal.print(JSON.stringify({ servers: page.entries, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }, null, 2));
    return 0;
  }
  const lines = page.entries.map((e) =>
    e.ok ? `${text(e.server.name)}  ${text(e.server.version, 40)}  ${text(firstLine(e.server.description))}` : `(skipped ${text(e.name ?? 'an entry')}: ${text(e.reason)})`,
  );
  terminal.print(lines.length ? lines.join('\n') : `No server matches "${text(query)}" in ${client.baseUrl}.`);
  if (page.nextCursor) terminal.say(`More: mcp-host search ${query ? `${JSON.stringify(query)} ` : ''}--cursor ${JSON.stringify(page.nextCursor)}`);
  return 0;
}

async function add(client: RegistryClient, args: string[], options: RegistryCommandOptions, env: NodeJS.ProcessEnv, cwd: string, terminal: RegistryTerminal): Promise<number> {
  const [name] = args;
  if (!name || args.length > 1) {
    terminal.say('usage: mcp-host add <registry name> [--registry URL] [--user]');
    return 2;
  }
  const entry = await client.latest(name);
  if (!entry.ok) {
    terminal.say(`${text(name)} cannot be installed: ${text(entry.reason, 400)}`);
    return 1;
  }
  const target = options.config ? path.resolve(cwd, options.config) : options.user ? userConfigPath(env) : path.join(cwd, '.vscode', 'mcp.json');
  let plan: InstallPlan;
  try {
    plan = planInstall(entry.server, client.baseUrl);
  } catch (e) {
    if (!(e instanceof MappingError)) throw e;
    terminal.say(`${text(name)} cannot be installed: ${text(e.message, 400)}`);
    return 1;
  }
  if (terminal.interactive && plan.questions.length) {
    const answers = new Map<string, string>();
    for (const id of plan.questions) {
      const input = plan.inputs.find((i) => i.id === id)!;
      const answer = await options.askInput(input);
      if (answer) answers.set(id, answer);
    }
    plan = answerQuestions(plan, answers);
  }
  // VS Code runs the user's mcp.json at every start without a question, and the extension's first-start marks are out
  // of reach here: what it will run is shown, and accepted, before it is written.
  if (target === userConfigPath(env) && !options.yes) {
    const runs = describeEntry(plan.entry).split('\n').map((line) => `  ${text(line, 400)}`).join('\n');
    const asked = `Add ${text(plan.name)} to your user mcp.json? VS Code will run it at every start without asking.\n${runs}\n[y/N] `;
    const answer = terminal.interactive ? await terminal.ask(asked) : undefined;
    if (!answer || !/^y(es)?$/i.test(answer.trim())) {
      terminal.say(terminal.interactive ? 'Nothing was written.' : `Nothing was written: add --user asks first; run it at a terminal, or pass --yes to add ${text(plan.name)} without asking.`);
      return 1;
    }
  }
  let before = '';
  try {
    before = fs.readFileSync(target, 'utf8');
  } catch {
    // A new file.
  }
  let written: ReturnType<typeof writeServer>;
  try {
    written = writeServer(before, plan);
  } catch (e) {
    if (!(e instanceof McpJsonWriteError)) throw e;
    terminal.say(`${target}: ${e.message}`);
    return 2;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, written.text);
  if (options.json) {
    terminal.print(JSON.stringify({ file: target, name: plan.name, replaced: written.replaced, entry: plan.entry, inputs: plan.inputs, leftOut: plan.leftOut }, null, 2));
    return 0;
  }
  const what = describeEntry(plan.entry)
    .split('\n')
    .map((line) => text(line, 400))
    .join('\n');
  terminal.print(`${written.replaced ? 'Updated' : 'Added'} ${text(plan.name)} ${text(entry.server.version, 40)} in ${target}\n${what}`);
  const asked = plan.inputs.map((i) => `${text(i.id)}${i.type === 'promptString' && i.password ? ' (secret)' : ''}`);
  if (asked.length) terminal.say(`Asked at the first start: ${asked.join(', ')}.`);
  if (plan.leftOut.length) terminal.say(`Optional, not set: ${plan.leftOut.map((n) => text(n, 80)).join(', ')}.`);
  return 0;
}
