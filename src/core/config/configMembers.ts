// The JSON tree helpers the mcp.json parser reads with: an object's members, typed properties, and the diagnostics
// they report, each placed exactly in the text.
import type { Node } from 'jsonc-parser';
import type { ConfigDiagnostic, DiagnosticSeverity, TextSpan } from './serverDefinition';

export interface Member {
  key: Node;
  value: Node;
}

export class Diagnostics {
  readonly list: ConfigDiagnostic[] = [];
  errorCount = 0;

  add(severity: DiagnosticSeverity, code: string, at: Node | TextSpan, message: string): void {
    if (severity === 'error') this.errorCount++;
    this.list.push({ message, span: { offset: at.offset, length: at.length }, severity, code });
  }

  error(code: string, at: Node | TextSpan, message: string): void {
    this.add('error', code, at, message);
  }

  wrongType(at: Node, what: string, expected: string): void {
    this.error('wrong-type', at, `${what} must be ${expected}, not ${describe(at)}.`);
  }
}

function describe(node: Node): string {
  switch (node.type) {
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    default:
      return `a ${node.type}`;
  }
}

/** An object's properties by name. The first of duplicate keys wins, as for server names; the others are reported. */
export function members(obj: Node, d: Diagnostics, onDuplicate?: (key: Node, name: string) => void): Map<string, Member> {
  const map = new Map<string, Member>();
  for (const prop of obj.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (!key || !value) continue;
    const name = key.value as string;
    if (!map.has(name)) map.set(name, { key, value });
    else if (onDuplicate) onDuplicate(key, name);
    else d.add('warning', 'duplicate-property', key, `Duplicate property "${name}"; only the first one is used.`);
  }
  return map;
}

export function stringProperty(m: Map<string, Member>, prop: string, what: string, d: Diagnostics, check?: (n: Node) => void): string | undefined {
  const node = m.get(prop)?.value;
  if (!node) return undefined;
  if (node.type !== 'string') {
    d.wrongType(node, what, 'a string');
    return undefined;
  }
  check?.(node);
  return node.value as string;
}

export function stringArrayProperty(m: Map<string, Member>, prop: string, what: string, d: Diagnostics, check?: (n: Node) => void): string[] | undefined {
  const node = m.get(prop)?.value;
  if (!node) return undefined;
  if (node.type !== 'array') {
    d.wrongType(node, what, 'an array of strings');
    return undefined;
  }
  const values: string[] = [];
  for (const item of node.children ?? []) {
    if (item.type !== 'string') d.wrongType(item, `Each item of ${what}`, 'a string');
    else {
      check?.(item);
      values.push(item.value as string);
    }
  }
  return values;
}

export function stringMapProperty(m: Map<string, Member>, prop: string, what: string, d: Diagnostics, check: (n: Node) => void): Record<string, string> {
  const node = m.get(prop)?.value;
  const result: Record<string, string> = {};
  if (!node) return result;
  if (node.type !== 'object') {
    d.wrongType(node, what, 'an object of strings');
    return result;
  }
  for (const [name, { value }] of members(node, d)) {
    if (value.type !== 'string') d.wrongType(value, `${what} value "${name}"`, 'a string');
    else {
      check(value);
      result[name] = value.value as string;
    }
  }
  return result;
}
