// Definition hashes decide restarts and trust, so they must depend on content only, never on key order in the file.
import { createHash } from 'node:crypto';

export function hashOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const members = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`);
    return `{${members.join(',')}}`;
  }
  // JSON.stringify(undefined) is undefined; inside an array JSON itself writes null there.
  return JSON.stringify(value) ?? 'null';
}
