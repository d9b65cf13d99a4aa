// The program a script's first line names (`#!/usr/bin/env node`): the kernel runs that, with the script as its
// argument, so the file `PATH` finds is not the program that runs. `env` looks its program up in the server's own
// PATH, where a workspace's `PATH` change can put a `tools/node` first. The trust question names that program, and
// when it is not the one your own PATH finds it is marked and part of the plan's identity.
import * as fs from 'fs';
import * as path from 'path';
import type { PlannedInterpreter } from '../../config/launchPlan';

/** Linux reads at most this much of the first line (BINPRM_BUF_SIZE). */
const MAX_LINE = 256;

function firstLine(file: string): string | undefined {
  let fd: number | undefined;
  try {
    if (!fs.statSync(file).isFile()) return undefined;
    fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(MAX_LINE);
    const read = fs.readSync(fd, buffer, 0, MAX_LINE, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    if (!text.startsWith('#!')) return undefined;
    return text.split(/\r?\n/)[0];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The program `env`'s arguments start: options and NAME=value assignments aside (`-S` splits its argument). */
function envProgram(argument: string): string | undefined {
  const words = argument.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '-u' || word === '--unset' || word === '-C' || word === '--chdir') {
      i++;
      continue;
    }
    if (word.startsWith('-') || /^[^/]*=/.test(word)) continue;
    return word;
  }
  return undefined;
}

/**
 * The interpreter of `executable` when it is a script, as found in the server's PATH (`find` with its environment)
 * and in the host's; undefined when it is no script (or on Windows, which runs no `#!` line).
 */
export function scriptInterpreter(executable: string | undefined, platform: NodeJS.Platform, find: (command: string, own: boolean) => string | undefined): PlannedInterpreter | undefined {
  if (!executable || platform === 'win32') return undefined;
  const line = firstLine(executable);
  if (line === undefined) return undefined;
  const [interpreter = '', ...rest] = line.slice(2).trim().split(/\s+/);
  const argument = rest.join(' ');
  if (path.basename(interpreter) !== 'env') return { line, program: interpreter, path: interpreter, differs: false };
  const program = envProgram(argument);
  if (!program) return { line, program: interpreter, path: interpreter, differs: false };
  const found = find(program, true);
  return { line, program, path: found, differs: found !== find(program, false) };
}
