// Reads what a confined server's sandbox refused from its stderr: the runtime's proxy logs each host it blocks, and
// a refused file access surfaces as the error the server prints (Node's "EROFS: read-only file system, open '…'",
// Python's "[Errno 30] Read-only file system: '…'"). Server text is untrusted: only the first part of a line is looked
// at, every pattern is linear, and a path or host must look like one.
import * as fs from 'fs';
import * as path from 'path';
import type { SandboxDenial } from '../../config/sandboxDenial';

const LOOKED_AT = 2000;
/** The runtime's own log lines (SRT_DEBUG), which carry its proxy's refusals. */
export const RUNTIME_LINE = /^\[SandboxDebug\] /;
const BLOCKED = /^\[SandboxDebug\] (?:Connection|HTTP request) blocked to \[?([A-Za-z0-9.*:-]{1,253}?)\]?:(\d{1,5})\b/;
const NODE_FS = /\b(EROFS|EACCES|EPERM): [a-z ,-]{0,60}?, [a-z]{1,12} '(\/[^'\n]{0,1024})'/;
const PYTHON_FS = /\[Errno (30|13|1)\] [A-Za-z -]{0,40}: '(\/[^'\n]{0,1024})'/;
/** A name the sandbox's netns could not resolve: the host was never allowed through the proxy. */
const DNS = /\bgetaddrinfo (?:EAI_AGAIN|ENOTFOUND) ([A-Za-z0-9.-]{1,253})\b/;

export function denialIn(line: string): SandboxDenial | undefined {
  const text = line.slice(0, LOOKED_AT);
  const blocked = BLOCKED.exec(text);
  if (blocked) return { kind: 'network', host: blocked[1] };
  if (RUNTIME_LINE.test(text)) return undefined;
  const nodeFs = NODE_FS.exec(text);
  if (nodeFs) return { kind: nodeFs[1] === 'EROFS' ? 'write' : writeVerb(text) ? 'write' : 'read', path: nodeFs[2] };
  const py = PYTHON_FS.exec(text);
  if (py) return { kind: py[1] === '30' ? 'write' : 'read', path: py[2] };
  const dns = DNS.exec(text);
  if (dns && dns[1].includes('.')) return { kind: 'network', host: dns[1] };
  return undefined;
}

/** Node names the call: a refused mkdir, rename or unlink is a write whatever the errno. */
const writeVerb = (text: string): boolean => /, (?:mkdir|rename|unlink|rmdir|symlink|link|copyfile|utime|chmod) '/.test(text);

/**
 * A write denial with what its rule must name: the sandbox allows writing only paths that exist when it starts, so a
 * file not made yet is allowed through the folder it would be made in (the nearest one that exists).
 */
export function ruleReady(denial: SandboxDenial | undefined, exists: (p: string) => boolean = fs.existsSync): SandboxDenial | undefined {
  if (denial?.kind !== 'write' || exists(denial.path)) return denial;
  let dir = path.dirname(denial.path);
  while (!exists(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return { ...denial, allow: dir };
}

/** The denials of one run, each once, capped. */
export class DenialLog {
  static readonly MAX = 20;
  readonly list: SandboxDenial[] = [];
  private readonly seen = new Set<string>();

  add(denial: SandboxDenial): boolean {
    const key = JSON.stringify(denial);
    if (this.seen.has(key) || this.list.length >= DenialLog.MAX) return false;
    this.seen.add(key);
    this.list.push(denial);
    return true;
  }
}
