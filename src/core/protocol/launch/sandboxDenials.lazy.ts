// What a confined server's sandbox refused, read from the runtime's own channel (fd 3 of our launcher, which the
// sandboxed command never gets): its violation store's lines, `deny <syscall> <path>` for a write bubblewrap refused
// (the runtime's seccomp observer) and `deny network-outbound <host>:<port> (<reason>)` for its proxy. Each denial
// gets the rule that would allow exactly it, or why none is offered. Lines are capped, every pattern is linear.
import type { PlannedSandbox } from '../../config/launchPlan';
import { isSandboxDomain, loopbackEntry } from '../../config/sandboxConfig';
import type { SandboxDenial } from '../../config/sandboxDenial';
import { allowRuleProblem } from './sandboxProtection.lazy';

/** The longest channel line read; the runtime cuts its lines far shorter. */
export const MAX_CHANNEL_LINE_BYTES = 16 * 1024;
const WRITE = /^deny ([a-z][a-z0-9_]{0,31}) (\/[^\n]{0,4095})$/;
const NETWORK = /^deny network-outbound (\S{1,300}) \(([^\n]{0,600})\)$/;
const NOT_ALLOWED = 'host is not on the allow list';

/** The denial a channel line reports, without its rule yet; undefined for any other line. */
export function denialOf(channelLine: string): SandboxDenial | undefined {
  let line: unknown;
  try {
    line = (JSON.parse(channelLine.slice(0, MAX_CHANNEL_LINE_BYTES)) as { line?: unknown }).line;
  } catch {
    return undefined;
  }
  if (typeof line !== 'string') return undefined;
  const network = NETWORK.exec(line);
  if (network) {
    const at = network[1].lastIndexOf(':');
    const port = Number(network[1].slice(at + 1));
    const host = network[1].slice(0, at).replace(/^\[(.*)\]$/, '$1');
    if (at <= 0 || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
    return { kind: 'network', host, port, ...(network[2] === NOT_ALLOWED ? {} : { refused: `the sandbox refuses it whatever the rules allow (${network[2]})` }) };
  }
  const write = WRITE.exec(line);
  return write ? { kind: 'write', path: write[2] } : undefined;
}

/** The rule's value for a network denial: the host, with its port where the host is this machine, an IP, or the port is not a web one. */
function hostRule(host: string, port: number): string {
  const bracketed = host.includes(':') ? `[${host}]` : host;
  const bare = !loopbackEntry(bracketed) && !/^[\d.]+$/.test(host) && !host.includes(':') && (port === 443 || port === 80);
  return bare ? host : `${bracketed}:${port}`;
}

/**
 * The denial with what "Allow and Restart" would write (exactly what was refused), or why nothing. `isFile`: whether
 * the path is a file on the disk (only a file is offered); `env`: the user's environment (where its settings are).
 */
export function withRule(denial: SandboxDenial, sandbox: PlannedSandbox, pathValue: string | undefined, isFile?: (p: string) => boolean, env?: Readonly<Record<string, string | undefined>>): SandboxDenial {
  if (denial.refused !== undefined) return denial;
  if (denial.kind === 'network') {
    const rule = hostRule(denial.host, denial.port);
    return isSandboxDomain(rule) ? { ...denial, allow: rule } : { ...denial, refused: 'the sandbox\'s rules cannot name this host' };
  }
  const problem = allowRuleProblem(denial.path, { home: sandbox.home, storage: sandbox.storage, cache: sandbox.cache, pathValue, env }, isFile);
  return problem ? { ...denial, refused: problem } : { ...denial, allow: denial.path };
}

/** The denials of one run, each once, capped. */
export class DenialLog {
  static readonly MAX = 20;
  readonly list: SandboxDenial[] = [];
  private readonly seen = new Set<string>();

  add(denial: SandboxDenial): boolean {
    const key = denial.kind === 'write' ? `w ${denial.path}` : `n ${denial.host}:${denial.port}`;
    if (this.seen.has(key) || this.list.length >= DenialLog.MAX) return false;
    this.seen.add(key);
    this.list.push(denial);
    return true;
  }
}
