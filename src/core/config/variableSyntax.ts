// The grammar of mcp.json's ${...} variables, as each file format reads them: class-free and stateless, so every bundle
// that needs it (the parser on activation, Import Servers… on demand) may hold its own copy. ./variables resolves them.
import type { VariableDialect } from './serverDefinition';

export type VariableRef =
  | { kind: 'input'; id: string }
  /** `fallback`: the value when the variable is not set (`${VAR:-default}` in an mcpServers file). */
  | { kind: 'env'; name: string; fallback?: string }
  /** `${config:name}`: a VS Code setting's value (its effective value for the folder). */
  | { kind: 'config'; name: string }
  /** `${command:id}`: what a VS Code command returns (run without arguments). */
  | { kind: 'command'; command: string }
  | { kind: 'workspaceFolder' | 'workspaceFolderBasename' | 'userHome' | 'pathSeparator' }
  | { kind: 'unsupported'; name: string };

export interface VariableOccurrence {
  /** The whole `${...}` text. */
  text: string;
  /** Index of `$` in the string value (not in the file). */
  index: number;
  ref: VariableRef;
}

const VARIABLE = /\$\{([^{}]*)\}/g;
/** An mcpServers file's environment variable: `NAME`, or `NAME:-default` (the default may be empty). */
const SHELL_STYLE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

function classify(name: string, dialect: VariableDialect): VariableRef {
  const ref = classifyVsCode(name);
  if (ref.kind !== 'unsupported' || dialect !== 'mcpServers') return ref;
  const shell = SHELL_STYLE.exec(name);
  return shell ? { kind: 'env', name: shell[1], ...(shell[2] !== undefined ? { fallback: shell[2] } : {}) } : ref;
}

function classifyVsCode(name: string): VariableRef {
  if (name.startsWith('input:') && name.length > 'input:'.length) return { kind: 'input', id: name.slice('input:'.length) };
  if (name.startsWith('env:') && name.length > 'env:'.length) return { kind: 'env', name: name.slice('env:'.length) };
  if (name.startsWith('config:') && name.length > 'config:'.length) return { kind: 'config', name: name.slice('config:'.length) };
  if (name.startsWith('command:') && name.length > 'command:'.length) return { kind: 'command', command: name.slice('command:'.length) };
  switch (name) {
    case 'workspaceFolder':
    case 'workspaceFolderBasename':
    case 'userHome':
    case 'pathSeparator':
      return { kind: name };
    case '/':
      return { kind: 'pathSeparator' };
    default:
      return { kind: 'unsupported', name };
  }
}

/** The variables of a string value, as the file's dialect reads them. */
export function variablesIn(value: string, dialect: VariableDialect = 'vscode'): VariableOccurrence[] {
  return [...value.matchAll(VARIABLE)].map((m) => ({ text: m[0], index: m.index, ref: classify(m[1], dialect) }));
}
