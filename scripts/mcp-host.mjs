#!/usr/bin/env node
// mcp-host: the servers of an mcp.json on the command line, run by the extension's own core (compiled by
// `npm run compile` into out/). `mcp-host --help` for the commands. Questions go to stderr and are answered on stdin;
// results go to stdout.
import { createRequire } from 'node:module';
import * as readline from 'node:readline';
import { Writable } from 'node:stream';

const require = createRequire(import.meta.url);
const { runCli } = require('../out/src/cli/cli.js');

// One reader for the whole run; answers typed ahead (or piped in) wait for their question.
let muted = false;
const output = new Writable({
  write(chunk, _encoding, done) {
    if (!muted) process.stderr.write(chunk);
    done();
  },
});
const rl = readline.createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY === true });
const lines = [];
const waiting = [];
let ended = false;
rl.on('line', (line) => (waiting.length ? waiting.shift()(line) : lines.push(line)));
rl.on('close', () => {
  ended = true;
  for (const resolve of waiting.splice(0)) resolve(undefined);
});

const terminal = {
  ask(question, options = {}) {
    process.stderr.write(question);
    return new Promise((resolve) => {
      const answer = (line) => {
        muted = false;
        if (options.secret && line !== undefined) process.stderr.write('\n');
        resolve(line);
      };
      muted = options.secret === true;
      if (lines.length) answer(lines.shift());
      else if (ended) answer(undefined);
      else waiting.push(answer);
    });
  },
  say: (line) => process.stderr.write(`${line}\n`),
  print: (text) => process.stdout.write(`${text}\n`),
  interactive: process.stdin.isTTY === true,
};

const code = await runCli(process.argv.slice(2), process.env, process.cwd(), terminal);
rl.close();
process.exit(code);
