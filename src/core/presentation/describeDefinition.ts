// What a server definition would run, for the trust question. With a launch plan (every start of a workspace server
// has one) the question is the plan's rendering alone (describeLaunchPlan.ts). Without one (a definition shown
// before anything is resolved), as written: variables unresolved, literal values masked, the env file's variables
// named, and every variable that changes what the command runs flagged with its value.
import * as path from 'path';
import type { RawServer } from '../config/serverDefinition';
import type { TrustFacts } from '../config/trustFacts';
import { describeLaunchPlan } from './describeLaunchPlan';

/**
 * Variables that change what a command actually runs (preloaded code, interpreter options, where programs, libraries
 * or configuration are found, commands git runs): their values are shown and flagged.
 */
const CODE_CHANGING_VARIABLES =
  /^(PATH|HOME|ENV|BASH_ENV|NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|DOTNET_STARTUP_HOOKS|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|npm_config_\w+|GIT_(SSH|SSH_COMMAND|EXEC_PATH|ASKPASS|EDITOR|SEQUENCE_EDITOR|PAGER|EXTERNAL_DIFF|PROXY_COMMAND|CONFIG\w*|TEMPLATE_DIR))$/i;

const MASK = '••••••';
const MAX_SHOWN = 200;

export const isCodeChangingVariable = (name: string): boolean => CODE_CHANGING_VARIABLES.test(name);

/** A value as written when it only names where it comes from; literal text (which may be a key) masked. */
function shownValue(value: string): string {
  // The auth scheme says what kind of credential goes along; it is no secret.
  const scheme = /^(Bearer|Basic|Token|Bot)\s+/i.exec(value)?.[0] ?? '';
  return scheme + value.slice(scheme.length).replace(/\$\{[^{}]*\}|((?:(?!\$\{)[^])+)/g, (whole, literal: string | undefined) => (literal === undefined ? whole : literal.trim() ? MASK : literal));
}

const clip = (text: string) => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);

/** `PATH` entries that are relative: programs there are found before the system's (a fake `npx` in the folder). */
function relativePathEntries(value: string): string[] {
  const separator = value.includes(';') && !value.includes(':/') ? ';' : path.delimiter;
  return value.split(separator).filter((e) => e && !e.startsWith('${') && !path.isAbsolute(e) && !/^[a-z]:[\\/]/i.test(e));
}

function variableLines(source: string, variables: Record<string, string | null>): string[] {
  const lines: string[] = [];
  const plain: string[] = [];
  for (const [name, value] of Object.entries(variables)) {
    if (!isCodeChangingVariable(name)) {
      plain.push(value === null ? `${name} (removed)` : `${name}=${shownValue(value)}`);
      continue;
    }
    lines.push(`⚠ ${name}=${value === null ? '(removed)' : clip(value)} (${source}) — changes what the command runs`);
    const relative = name.toUpperCase() === 'PATH' && value !== null ? relativePathEntries(value) : [];
    if (relative.length) lines.push(`⚠ PATH has relative entries (${relative.join(', ')}): programs there are run instead of the system's, npx included`);
  }
  if (plain.length) lines.push(`${source === 'env' ? 'Environment' : 'From the env file'}: ${clip(plain.join(', '))}`);
  return lines;
}

export function describeDefinition(raw: RawServer, facts: TrustFacts = {}): string {
  if (facts.plan) return describeLaunchPlan(facts.plan, facts.storedInputs);
  const lines: string[] = [];
  if (raw.type === 'stdio') {
    lines.push(`Command: ${[raw.command, ...raw.args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))].join(' ')}`);
    if (raw.cwd) lines.push(`Working directory: ${raw.cwd}`);
    lines.push(...variableLines('env', raw.env));
    if (raw.envFile) {
      lines.push(`Environment file: ${raw.envFile} (its contents are part of what you trust)`);
      const file = facts.envFile;
      if (file && 'error' in file) lines.push(`⚠ ${file.error}`);
      else if (file) lines.push(...variableLines('env file', file.variables));
    }
  } else {
    lines.push(`URL: ${raw.url} (${raw.type === 'sse' ? 'SSE' : 'Streamable HTTP'})`);
    const headers = Object.entries(raw.headers).map(([name, value]) => `${name}: ${shownValue(value)}`);
    if (headers.length) lines.push(`Headers sent to it: ${headers.join('; ')}`);
    if (raw.headersHelper) lines.push(`⚠ Runs on this machine before each connection ("headersHelper"): ${raw.headersHelper.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  }
  if (facts.storedInputs?.length) lines.push(`It receives the stored values of the inputs ${facts.storedInputs.join(', ')} (entered before, maybe for another server).`);
  return lines.join('\n');
}
