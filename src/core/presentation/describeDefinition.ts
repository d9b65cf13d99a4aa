// What a server definition would run, for the trust question. With a launch plan (every start of a workspace server
// has one) the question is the plan's rendering alone (describeLaunchPlan.ts). Without one (a definition shown
// before anything is resolved: the registry's and Import's preview), as written: variables unresolved, header values
// masked, every variable with its value, nothing clipped; those not on the allow-list of harmless names each on a ⚠
// line, as the launch plan shows them.
import * as path from 'path';
import type { RawServer } from '../config/serverDefinition';
import type { TrustFacts } from '../config/trustFacts';
import { describeLaunchPlan } from './describeLaunchPlan';
import { isHarmlessVariable } from '../config/harmlessVariables';
import { visibleText as v } from './serverText';

const MASK = '••••••';

/** A value as written when it only names where it comes from; literal text (which may be a key) masked. */
function shownValue(value: string): string {
  // The auth scheme says what kind of credential goes along; it is no secret.
  const scheme = /^(Bearer|Basic|Token|Bot)\s+/i.exec(value)?.[0] ?? '';
  return scheme + value.slice(scheme.length).replace(/\$\{[^{}]*\}|((?:(?!\$\{)[^])+)/g, (whole, literal: string | undefined) => (literal === undefined ? whole : literal.trim() ? MASK : literal));
}

/** `PATH` entries that are relative: programs there are found before the system's (a fake `npx` in the folder). */
function relativePathEntries(value: string): string[] {
  const separator = value.includes(';') && !value.includes(':/') ? ';' : path.delimiter;
  return value.split(separator).filter((e) => e && !e.startsWith('${') && !path.isAbsolute(e) && !/^[a-z]:[\\/]/i.test(e));
}

/** Every variable with its value as written; those not on the allow-list of harmless names each on a ⚠ line, first. */
function variableLines(source: string, variables: Record<string, string | null>): string[] {
  const lines: string[] = [];
  const plain: string[] = [];
  for (const [name, value] of Object.entries(variables)) {
    const shown = value === null ? `${v(name)} (removed)` : `${v(name)}=${v(value)}`;
    if (isHarmlessVariable(name)) {
      plain.push(shown);
      continue;
    }
    lines.push(`⚠ ${shown} (${source}) — not known to be harmless: it may change what runs`);
    const relative = name.toUpperCase() === 'PATH' && value !== null ? relativePathEntries(value) : [];
    if (relative.length) lines.push(`⚠ PATH has relative entries (${relative.map(v).join(', ')}): programs there are run instead of the system's, npx included`);
  }
  if (plain.length) lines.push(`${source === 'env' ? 'Harmless' : 'Harmless, from the env file'}: ${plain.join(', ')}`);
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
