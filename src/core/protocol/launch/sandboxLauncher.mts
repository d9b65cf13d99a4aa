// A program of its own (run by the host's Node, never loaded by the extension): it does what the sandbox runtime's
// `srt` command line does for one command (its settings, its proxy, bubblewrap or sandbox-exec around the command),
// and reports what the runtime refused on fd 3, a channel of the host's that the sandboxed command never gets (its
// slot is /dev/null there): denials are the runtime's own words, never text the server wrote. In the package, it is
// bundled with the runtime (esbuild.js: dist/sandbox-runtime/launcher.mjs).
//
// Usage: node launcher.mjs <executable> [args…], the runtime's settings (JSON) on fd 4, read to its end: never a
// file, which a confined server that may write the temp dir could rewrite before a later start reads it. fd 3: one
// JSON line `{"line": "deny …"}` a denial.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { SandboxManager, SandboxRuntimeConfigSchema } from '@anthropic-ai/sandbox-runtime';

/** One word of a POSIX shell command (the runtime runs the wrapped command through `sh -c`). */
const quote = (word: string): string => `'${word.replace(/'/g, "'\\''")}'`;

/** fd 3, as the host hands it (a socket), or a file or pipe when run by hand; undefined without one. */
function openChannel(): NodeJS.WritableStream | undefined {
  try {
    const stream = fs.fstatSync(3).isSocket() ? new net.Socket({ fd: 3, readable: false, writable: true }) : fs.createWriteStream('', { fd: 3 });
    // The host stopped listening (it is stopping the server): nothing to report to.
    stream.on('error', () => undefined);
    return stream;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const command = process.argv.slice(2);
  if (!command.length) throw new Error('usage: launcher.mjs <executable> [args…], with the settings on fd 4');
  const settings = fs.readFileSync(4, 'utf8');
  fs.closeSync(4);
  const config = SandboxRuntimeConfigSchema.parse(JSON.parse(settings));
  const channel = openChannel();
  // The third argument turns on the runtime's violation monitor (Linux: the seccomp observer; macOS: the log).
  await SandboxManager.initialize(config, undefined, true);
  const store = SandboxManager.getSandboxViolationStore();
  let reported = store.getTotalCount();
  store.subscribe((all) => {
    const fresh = Math.min(store.getTotalCount() - reported, all.length);
    reported = store.getTotalCount();
    if (fresh > 0) for (const v of all.slice(-fresh)) channel?.write(`${JSON.stringify({ line: v.line })}\n`);
  });
  const wrapped = await SandboxManager.wrapWithSandbox(command.map(quote).join(' '));
  const child = spawn(wrapped, { shell: true, stdio: ['inherit', 'inherit', 'inherit', fs.openSync('/dev/null', 'r')] });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('error', (e) => {
    console.error(`The sandbox could not run the command: ${e.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    // The runtime's placeholders for absent protected paths are removed from the disk.
    SandboxManager.cleanupAfterCommand();
    const exit = () => process.exit(code ?? (signal ? 128 + (signal === 'SIGKILL' ? 9 : 15) : 1));
    // The monitor's last events are still on their way (a socket of the runtime's own).
    setTimeout(() => (channel ? channel.end(exit) : exit()), 100);
  });
}

main().catch((e: Error) => {
  console.error(`The sandbox refused to start: ${e.message}`);
  process.exit(1);
});
