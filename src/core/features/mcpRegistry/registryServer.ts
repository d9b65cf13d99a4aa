// The MCP Registry's `server.json` (schema 2025-09-29 and later, API v0.1) as this extension reads it: a hand-written
// check of the parts we use, so a malformed entry is skipped with a reason and never reaches an mcp.json.

/** A value the user may have to give: an environment variable, a header or an argument. */
export interface RegistryInput {
  description?: string;
  /** A fixed value; may contain `{name}` placeholders defined in `variables`. */
  value?: string;
  default?: string;
  isRequired: boolean;
  isSecret: boolean;
  choices?: string[];
  /** Placeholders of `value`. */
  variables: Record<string, RegistryInput>;
}

export interface RegistryKeyValue extends RegistryInput {
  name: string;
}

export interface RegistryArgument extends RegistryInput {
  type: 'positional' | 'named';
  /** `named` arguments: the flag, e.g. `--port`. */
  name?: string;
  valueHint?: string;
  isRepeated: boolean;
}

export interface RegistryTransport {
  type: 'stdio' | 'streamable-http' | 'sse';
  url?: string;
  headers: RegistryKeyValue[];
}

export interface RegistryPackage {
  registryType: string;
  identifier: string;
  version?: string;
  registryBaseUrl?: string;
  runtimeHint?: string;
  transport: RegistryTransport;
  runtimeArguments: RegistryArgument[];
  packageArguments: RegistryArgument[];
  environmentVariables: RegistryKeyValue[];
}

export interface RegistryRemote {
  type: 'streamable-http' | 'sse';
  url: string;
  headers: RegistryKeyValue[];
}

export interface RegistryServer {
  name: string;
  description: string;
  title?: string;
  version: string;
  repository?: { url: string; source?: string; subfolder?: string };
  websiteUrl?: string;
  packages: RegistryPackage[];
  remotes: RegistryRemote[];
}

/** One search result or lookup: the server, or why it cannot be used (with whatever name could be read). */
export type RegistryEntry = { ok: true; server: RegistryServer; isLatest?: boolean; status?: string } | { ok: false; name?: string; reason: string };

/** Caps on what one entry may hold: a registry is a network service, its answers are untrusted. */
const MAX_STRING = 4096;
const MAX_ITEMS = 64;

class Invalid extends Error {}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(o: Obj, key: string, where: string, required: true): string;
function str(o: Obj, key: string, where: string, required?: boolean): string | undefined;
function str(o: Obj, key: string, where: string, required = false): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new Invalid(`${where} has no "${key}"`);
    return undefined;
  }
  // Numbers and booleans are accepted where a string is meant (a default of 8080), written as text.
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v !== 'string') throw new Invalid(`${where}: "${key}" is not a string`);
  if (v.length > MAX_STRING) throw new Invalid(`${where}: "${key}" is longer than ${MAX_STRING} characters`);
  return v;
}

function list(o: Obj, key: string, where: string): unknown[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Invalid(`${where}: "${key}" is not a list`);
  if (v.length > MAX_ITEMS) throw new Invalid(`${where}: "${key}" has more than ${MAX_ITEMS} items`);
  return v;
}

const bool = (o: Obj, key: string): boolean => o[key] === true;

function input(o: Obj, where: string, depth = 0): RegistryInput {
  const choices = list(o, 'choices', where).map((c) => (typeof c === 'string' || typeof c === 'number' ? String(c) : undefined));
  if (choices.some((c) => c === undefined)) throw new Invalid(`${where}: a choice is not a string`);
  const variables: Record<string, RegistryInput> = {};
  const vars = o.variables;
  if (vars !== undefined && vars !== null) {
    if (!isObject(vars) || depth > 0) throw new Invalid(`${where}: "variables" is not an object of inputs`);
    const names = Object.keys(vars);
    if (names.length > MAX_ITEMS) throw new Invalid(`${where}: too many variables`);
    for (const name of names) {
      const v = vars[name];
      if (!isObject(v)) throw new Invalid(`${where}: variable "${name}" is not an object`);
      variables[name] = input(v, `${where}, variable "${name}"`, depth + 1);
    }
  }
  return {
    description: str(o, 'description', where),
    value: str(o, 'value', where),
    default: str(o, 'default', where),
    isRequired: bool(o, 'isRequired'),
    isSecret: bool(o, 'isSecret'),
    ...(choices.length ? { choices: choices as string[] } : {}),
    variables,
  };
}

/** Names of environment variables and headers go into a process environment or an HTTP request as they are. */
const KEY_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function keyValues(o: Obj, key: string, where: string): RegistryKeyValue[] {
  return list(o, key, where).map((item, i) => {
    const at = `${where}, ${key}[${i}]`;
    if (!isObject(item)) throw new Invalid(`${at} is not an object`);
    const name = str(item, 'name', at, true);
    if (!KEY_NAME.test(name)) throw new Invalid(`${at}: "${name.slice(0, 80)}" is not a valid name`);
    return { name, ...input(item, at) };
  });
}

function args(o: Obj, key: string, where: string): RegistryArgument[] {
  return list(o, key, where).map((item, i) => {
    const at = `${where}, ${key}[${i}]`;
    if (!isObject(item)) throw new Invalid(`${at} is not an object`);
    const type = item.type;
    if (type !== 'positional' && type !== 'named') throw new Invalid(`${at}: unknown argument type`);
    const name = str(item, 'name', at, type === 'named');
    return { type, ...(name !== undefined ? { name } : {}), valueHint: str(item, 'valueHint', at), isRepeated: bool(item, 'isRepeated'), ...input(item, at) };
  });
}

function httpUrl(value: string, at: string): string {
  // Placeholders ({port}) may stand in the URL of a package's transport; the scheme must still be written.
  if (!/^https?:\/\//i.test(value)) throw new Invalid(`${at}: "url" is not an http or https URL`);
  return value;
}

function transport(t: unknown, where: string): RegistryTransport {
  if (!isObject(t)) throw new Invalid(`${where} has no "transport"`);
  const type = t.type;
  if (type !== 'stdio' && type !== 'streamable-http' && type !== 'sse') throw new Invalid(`${where}: unknown transport type`);
  const url = str(t, 'url', where, type !== 'stdio');
  return { type, ...(url !== undefined ? { url: httpUrl(url, where) } : {}), headers: keyValues(t, 'headers', `${where} transport`) };
}

/** Checks one `server.json`; throws nothing: a malformed one comes back with the reason. */
export function readRegistryServer(value: unknown): { ok: true; server: RegistryServer } | { ok: false; name?: string; reason: string } {
  const name = isObject(value) && typeof value.name === 'string' ? value.name.slice(0, 200) : undefined;
  try {
    if (!isObject(value)) throw new Invalid('the entry is not an object');
    const server = readServer(value);
    return { ok: true, server };
  } catch (e) {
    if (!(e instanceof Invalid)) throw e;
    return { ok: false, ...(name !== undefined ? { name } : {}), reason: e.message };
  }
}

/** Registry names are reverse-DNS `namespace/name`. */
const SERVER_NAME = /^[A-Za-z0-9.-]+\/[A-Za-z0-9._-]+$/;

function readServer(o: Obj): RegistryServer {
  const name = str(o, 'name', 'The server', true);
  if (!SERVER_NAME.test(name) || name.length > 200) throw new Invalid('"name" is not a registry name (namespace/name)');
  const where = `Server "${name}"`;
  const version = str(o, 'version', where, true);
  const repoValue = o.repository;
  let repository: RegistryServer['repository'];
  if (isObject(repoValue) && typeof repoValue.url === 'string' && repoValue.url !== '') {
    repository = { url: str(repoValue, 'url', `${where} repository`, true), source: str(repoValue, 'source', where), subfolder: str(repoValue, 'subfolder', where) };
  }
  const packages = list(o, 'packages', where).map((p, i): RegistryPackage => {
    const at = `${where}, packages[${i}]`;
    if (!isObject(p)) throw new Invalid(`${at} is not an object`);
    const registryType = str(p, 'registryType', at, true);
    const identifier = str(p, 'identifier', at, true);
    if (identifier.trim() === '' || /\s/.test(identifier)) throw new Invalid(`${at}: "identifier" is empty or has spaces`);
    return {
      registryType,
      identifier,
      version: str(p, 'version', at),
      registryBaseUrl: str(p, 'registryBaseUrl', at),
      runtimeHint: str(p, 'runtimeHint', at),
      transport: transport(p.transport ?? { type: 'stdio' }, at),
      runtimeArguments: args(p, 'runtimeArguments', at),
      packageArguments: args(p, 'packageArguments', at),
      environmentVariables: keyValues(p, 'environmentVariables', at),
    };
  });
  const remotes = list(o, 'remotes', where).map((r, i): RegistryRemote => {
    const at = `${where}, remotes[${i}]`;
    if (!isObject(r)) throw new Invalid(`${at} is not an object`);
    const type = r.type;
    if (type !== 'streamable-http' && type !== 'sse') throw new Invalid(`${at}: unknown remote type`);
    return { type, url: httpUrl(str(r, 'url', at, true), at), headers: keyValues(r, 'headers', at) };
  });
  if (packages.length === 0 && remotes.length === 0) throw new Invalid(`${where} has neither packages nor remotes: there is nothing to run`);
  return {
    name,
    description: str(o, 'description', where) ?? '',
    title: str(o, 'title', where),
    version,
    ...(repository ? { repository } : {}),
    websiteUrl: str(o, 'websiteUrl', where),
    packages,
    remotes,
  };
}
