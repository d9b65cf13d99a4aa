// A registry server.json as an mcp.json entry, the way VS Code writes one (the registry name as the key, `gallery` and
// `version` recording where it came from): npm → npx, pypi → uvx, oci → docker run, remotes → http/sse with headers.
// Secrets become `${input:…}` password inputs; required values without a default become inputs the installer may
// answer at once (`answerQuestions`); defaults are kept; optional values without one are left out (and listed).
import type { InputDefinition } from '../../config/serverDefinition';
import type { RegistryArgument, RegistryInput, RegistryKeyValue, RegistryPackage, RegistryRemote, RegistryServer } from './registryServer';

/** One way to run a server: one of its packages or remotes. */
export interface InstallOption {
  kind: 'package' | 'remote';
  index: number;
  /** e.g. "npm @scope/name@1.2.0", "remote streamable-http https://…". Registry text: present through serverText. */
  label: string;
  /** Why this option cannot be installed here, if it cannot. */
  unsupported?: string;
}

/** What an install writes: the entry under `servers`, the inputs it uses, and what is asked now or left unset. */
export interface InstallPlan {
  /** The key under `servers`: the registry name. */
  name: string;
  entry: McpJsonEntry;
  /** Inputs the entry refers to (`${input:id}`): secrets (password) and required values. */
  inputs: InputDefinition[];
  /** Ids of the non-secret inputs an installer may ask now and write in as values. */
  questions: string[];
  /** Optional values with no default, not written. */
  leftOut: string[];
}

export type McpJsonEntry =
  | { type: 'stdio'; command: string; args: string[]; env?: Record<string, string>; gallery: string; version: string }
  | { type: 'http' | 'sse'; url: string; headers?: Record<string, string>; gallery: string; version: string };

const SUPPORTED_PACKAGES: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };

export function installOptions(server: RegistryServer): InstallOption[] {
  const packages = server.packages.map((p, index): InstallOption => {
    const label = `${p.registryType} ${p.identifier}${p.version ? `@${p.version}` : ''}`;
    let unsupported: string | undefined;
    if (!SUPPORTED_PACKAGES[p.registryType]) unsupported = `${p.registryType} packages are not supported (npm, pypi and oci are)`;
    else if (p.transport.type !== 'stdio') unsupported = `the package serves ${p.transport.type} on a local port, which mcp.json cannot start`;
    else if (p.identifier.startsWith('-')) unsupported = 'the package identifier starts with "-"';
    return { kind: 'package', index, label, ...(unsupported ? { unsupported } : {}) };
  });
  const remotes = server.remotes.map((r, index): InstallOption => ({ kind: 'remote', index, label: `remote ${r.type} ${r.url}` }));
  return [...packages, ...remotes];
}

export class MappingError extends Error {}

/** The input ids of a server: its short name and the value's name, in the characters an input id may have. */
const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'value';

class Builder {
  readonly inputs: InputDefinition[] = [];
  readonly questions: string[] = [];
  readonly leftOut: string[] = [];
  private readonly prefix: string;

  constructor(readonly server: RegistryServer) {
    this.prefix = slug(server.name.slice(server.name.lastIndexOf('/') + 1));
  }

  private newInput(name: string, input: RegistryInput): string {
    let id = `${this.prefix}-${slug(name)}`;
    for (let n = 2; this.inputs.some((i) => i.id === id); n++) id = `${this.prefix}-${slug(name)}-${n}`;
    const description = (input.description?.trim() || `${name} for ${this.server.name}`).slice(0, 500);
    if (input.isSecret) this.inputs.push({ type: 'promptString', id, description, password: true });
    else {
      if (input.choices?.length) this.inputs.push({ type: 'pickString', id, description, options: input.choices, ...(input.default !== undefined ? { default: input.default } : {}) });
      else this.inputs.push({ type: 'promptString', id, description, password: false });
      this.questions.push(id);
    }
    return `\${input:${id}}`;
  }

  /** The value to write, or undefined to leave it out. */
  value(name: string, input: RegistryInput): string | undefined {
    if (input.value !== undefined) {
      literal(input.value, name);
      // `{placeholder}`s: each declared variable resolved like a value of its own. Linear: one pass, no nesting.
      return input.value.replace(/\{([A-Za-z0-9_.-]{1,100})\}/g, (whole, variable: string) => {
        const v = input.variables[variable];
        if (!v) return whole;
        return this.value(`${name} ${variable}`, v) ?? '';
      });
    }
    if (input.isSecret && (input.isRequired || input.default === undefined)) return this.newInput(name, input);
    if (input.default !== undefined) {
      literal(input.default, name);
      return input.default;
    }
    if (input.isRequired) return this.newInput(name, input);
    this.leftOut.push(name);
    return undefined;
  }

  args(list: RegistryArgument[]): string[] {
    const out: string[] = [];
    for (const a of list) {
      const label = a.type === 'named' ? a.name! : (a.valueHint ?? 'argument');
      if (a.type === 'named') literal(a.name!, label);
      const value = this.value(label, a);
      if (a.type === 'named') {
        if (value === undefined) continue;
        out.push(a.name!, ...(value === '' ? [] : [value]));
      } else if (value !== undefined) out.push(value);
    }
    return out;
  }

  keyValues(list: RegistryKeyValue[]): Record<string, string> | undefined {
    const out: Record<string, string> = {};
    for (const kv of list) {
      const value = this.value(kv.name, kv);
      if (value !== undefined) out[kv.name] = value;
    }
    return Object.keys(out).length ? out : undefined;
  }
}

/**
 * Registry text is literal: a `${…}` in it would become one of our variables (`${env:…}` sends the user's
 * environment to whoever wrote it), so an entry with one is refused.
 */
function literal(value: string, where: string): void {
  if (value.includes('${')) throw new MappingError(`the value of ${where} contains "\${", which mcp.json would read as a variable`);
}

/** The plan for one option (by default the first supported one); throws MappingError when it cannot be written. */
export function planInstall(server: RegistryServer, registryUrl: string, option?: InstallOption): InstallPlan {
  const options = installOptions(server);
  const chosen = option ?? options.find((o) => !o.unsupported);
  if (!chosen) throw new MappingError(options.map((o) => o.unsupported).filter(Boolean).join('; ') || 'nothing to run');
  if (chosen.unsupported) throw new MappingError(chosen.unsupported);
  const b = new Builder(server);
  const origin = { gallery: registryUrl, version: server.version };
  let entry: McpJsonEntry;
  if (chosen.kind === 'remote') entry = remoteEntry(server.remotes[chosen.index], b, origin);
  else entry = packageEntry(server.packages[chosen.index], b, origin);
  return { name: server.name, entry, inputs: b.inputs, questions: b.questions, leftOut: b.leftOut };
}

function remoteEntry(remote: RegistryRemote, b: Builder, origin: { gallery: string; version: string }): McpJsonEntry {
  literal(remote.url, 'the URL');
  const headers = b.keyValues(remote.headers);
  return { type: remote.type === 'sse' ? 'sse' : 'http', url: remote.url, ...(headers ? { headers } : {}), ...origin };
}

function packageEntry(p: RegistryPackage, b: Builder, origin: { gallery: string; version: string }): McpJsonEntry {
  literal(p.identifier, 'the package identifier');
  if (p.version !== undefined) literal(p.version, 'the package version');
  const runtime = b.args(p.runtimeArguments);
  const env = b.keyValues(p.environmentVariables);
  const packageArgs = b.args(p.packageArguments);
  let command: string;
  let args: string[];
  switch (p.registryType) {
    case 'npm':
      command = 'npx';
      args = [...(runtime.includes('-y') || runtime.includes('--yes') ? [] : ['-y']), ...runtime, p.version ? `${p.identifier}@${p.version}` : p.identifier, ...packageArgs];
      break;
    case 'pypi':
      command = 'uvx';
      args = [...runtime, p.version ? `${p.identifier}==${p.version}` : p.identifier, ...packageArgs];
      break;
    default: {
      // oci: the image, tagged with the version unless the identifier names a tag or digest already.
      const tail = p.identifier.slice(p.identifier.lastIndexOf('/') + 1);
      const image = p.version && !tail.includes(':') && !p.identifier.includes('@') ? `${p.identifier}:${p.version}` : p.identifier;
      command = 'docker';
      const passEnv = Object.keys(env ?? {}).flatMap((name) => ['-e', name]);
      args = ['run', '-i', '--rm', ...runtime, ...passEnv, image, ...packageArgs];
    }
  }
  return { type: 'stdio', command, args, ...(env ? { env } : {}), ...origin };
}

/**
 * Writes the installer's answers in as values: each answered question's `${input:id}` is replaced by the answer and
 * its input dropped. Unanswered ones stay inputs, asked at the server's first start.
 */
export function answerQuestions(plan: InstallPlan, answers: Map<string, string>): InstallPlan {
  const answered = new Set([...answers.keys()].filter((id) => plan.questions.includes(id)));
  if (answered.size === 0) return plan;
  const replace = (s: string) => s.replace(/\$\{input:([^{}]*)\}/g, (whole, id: string) => (answered.has(id) ? answers.get(id)! : whole));
  const map = (o: Record<string, string> | undefined) => (o ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, replace(v)])) : undefined);
  const e = plan.entry;
  const entry: McpJsonEntry =
    e.type === 'stdio' ? { ...e, args: e.args.map(replace), ...(e.env ? { env: map(e.env) } : {}) } : { ...e, url: replace(e.url), ...(e.headers ? { headers: map(e.headers) } : {}) };
  return { ...plan, entry, inputs: plan.inputs.filter((i) => !answered.has(i.id)), questions: plan.questions.filter((q) => !answered.has(q)) };
}
