// The processes of a suite's servers, found in /proc by an argument each is started with (Linux only).
import * as fs from 'fs';

/** The live processes whose command line holds `mark`; zombies (state Z: exited, not yet reaped here) are left out. */
export function processesMarked(mark: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(mark)) continue;
      if (/\) Z /.test(fs.readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
