// What a server definition would run, for the trust question: as written (variables unresolved), so a secret that
// comes from an input or the environment is never displayed.
import type { RawServer } from './types';

/**
 * Variables that change what a command actually runs (preloaded code, interpreter options, where programs are
 * found): their values are shown and flagged, while other values stay hidden (they may be literal keys).
 */
const CODE_CHANGING_VARIABLES = /^(PATH|NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_\w+|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|BASH_ENV|ENV|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|GIT_SSH_COMMAND)$/i;

export function describeDefinition(raw: RawServer): string {
  if (raw.type === 'stdio') {
    const lines = [`Command: ${[raw.command, ...raw.args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))].join(' ')}`];
    if (raw.cwd) lines.push(`Working directory: ${raw.cwd}`);
    const names = Object.keys(raw.env);
    const risky = names.filter((n) => CODE_CHANGING_VARIABLES.test(n));
    for (const n of risky) lines.push(`⚠ ${n}=${raw.env[n] ?? '(removed)'} — changes what the command runs`);
    const others = names.filter((n) => !risky.includes(n));
    if (others.length) lines.push(`Environment: ${others.join(', ')}`);
    if (raw.envFile) lines.push(`Environment file: ${raw.envFile} (its contents are part of what you trust)`);
    return lines.join('\n');
  }
  const lines = [`URL: ${raw.url} (${raw.type === 'sse' ? 'SSE' : 'Streamable HTTP'})`];
  const headers = Object.keys(raw.headers);
  if (headers.length) lines.push(`Headers: ${headers.join(', ')}`);
  return lines.join('\n');
}
