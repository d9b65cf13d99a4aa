// Asks the launcher (scripts/code-server-launcher.mjs, with MCPHOST_TEST_PAGE_REQUESTS set) to act on the workbench
// page it holds: what an extension cannot do itself, such as a screenshot of the real UI or a click on a row.
import * as fs from 'node:fs';
import * as path from 'node:path';

let next = 1;

export type PageRequest = { action: 'screenshot'; path: string } | { action: 'click'; selector: string } | { action: 'press'; key: string };

export async function pageRequest(request: PageRequest, timeoutMs = 20_000): Promise<void> {
  const dir = process.env.MCPHOST_TEST_PAGE_REQUESTS;
  if (!dir) throw new Error('MCPHOST_TEST_PAGE_REQUESTS is not set: the launcher does not take page requests');
  const id = `${process.pid}-${next++}`;
  const done = path.join(dir, `${id}.done.json`);
  fs.writeFileSync(path.join(dir, `${id}.request.json.tmp`), JSON.stringify(request));
  fs.renameSync(path.join(dir, `${id}.request.json.tmp`), path.join(dir, `${id}.request.json`));
  const end = Date.now() + timeoutMs;
  while (!fs.existsSync(done)) {
    if (Date.now() > end) throw new Error(`the launcher did not answer ${JSON.stringify(request)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const answer = JSON.parse(fs.readFileSync(done, 'utf8')) as { ok: boolean; error?: string };
  fs.rmSync(done);
  if (!answer.ok) throw new Error(`page request ${request.action} failed: ${answer.error}`);
}
