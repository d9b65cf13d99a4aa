// Asks the launcher (scripts/code-server-launcher.mjs) to act on the workbench page it holds, through its page hook
// (MCPHOST_TEST_PAGE): what an extension cannot do itself, such as a screenshot of the real UI or a click on a row.

export type PageRequest =
  | { action: 'screenshot'; path: string }
  | { action: 'click'; selector: string }
  | { action: 'hover'; selector: string }
  | { action: 'press'; key: string }
  | { action: 'type'; text: string }
  /**
   * The page's CPU profile (its main thread), from start to stop, written to `path` (`….cpuprofile`), and its timeline
   * trace beside it (`….trace.json`), whose events' `tdur` is the CPU the page used.
   */
  | { action: 'profileStart' }
  | { action: 'profileStop'; path: string };

export async function pageRequest(request: PageRequest): Promise<void> {
  const base = process.env.MCPHOST_TEST_PAGE;
  if (!base) throw new Error('MCPHOST_TEST_PAGE is not set: the launcher has no page hook');
  const body =
    request.action === 'screenshot' || request.action === 'profileStop'
      ? { action: request.action, value: request.path }
      : request.action === 'profileStart'
        ? { action: request.action }
        : request.action === 'press'
          ? { action: 'press', value: request.key }
          : request.action === 'type'
            ? { action: 'type', value: request.text }
            : { action: request.action === 'hover' ? 'hoverPage' : 'clickPage', selector: request.selector };
  const response = await fetch(`${base}/query`, { method: 'POST', body: JSON.stringify(body) });
  const answer = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`page request ${request.action} failed: ${(answer as { error?: string }).error}`);
}

/**
 * The CPU time (ms) the browser that draws the workbench has used so far, all its processes and threads (the launcher's
 * `browserCpu`); null where the launcher cannot tell (not Linux).
 */
export async function browserCpuMs(): Promise<number | null> {
  const base = process.env.MCPHOST_TEST_PAGE;
  if (!base) throw new Error('MCPHOST_TEST_PAGE is not set: the launcher has no page hook');
  const response = await fetch(`${base}/query`, { method: 'POST', body: JSON.stringify({ action: 'browserCpu' }) });
  const answer = (await response.json()) as number | null | { error?: string };
  if (!response.ok || (answer !== null && typeof answer !== 'number')) throw new Error(`page request browserCpu failed: ${(answer as { error?: string }).error}`);
  return answer;
}

/** What `expression` (a function body; `element` is the first match of `selector`) returns in each frame that has it. */
export async function pageQuery<T>(selector: string, expression: string): Promise<T[]> {
  const base = process.env.MCPHOST_TEST_PAGE;
  if (!base) throw new Error('MCPHOST_TEST_PAGE is not set: the launcher has no page hook');
  const response = await fetch(`${base}/query`, { method: 'POST', body: JSON.stringify({ selector, expression }) });
  const answer = (await response.json()) as { value: T }[] | { error?: string };
  if (!response.ok || !Array.isArray(answer)) throw new Error(`page query failed: ${(answer as { error?: string }).error}`);
  return answer.map((a) => a.value);
}

/** The rows of the Servers view that are on screen (its list draws only those), as shown: label and description. */
export async function serversViewRows(): Promise<string[]> {
  return (await serversViewRowsWithIcons()).map((r) => r.text);
}

/** The rows of the Servers view whose label or description the view cuts ("…") at its current width, as shown. */
export async function cutServersViewRows(): Promise<string[]> {
  const [rows] = await pageQuery<string[]>(
    '.monaco-workbench',
    `const pane = [...document.querySelectorAll('.pane')].find((p) => p.querySelector('.pane-header')?.innerText.trim().startsWith('Servers'));
     return pane ? [...pane.querySelectorAll('.pane-body .monaco-list-row')].filter((row) => {
       const label = row.querySelector('.monaco-icon-label-container');
       return label && label.scrollWidth > label.clientWidth + 1;
     }).map((row) => [...row.querySelectorAll('.label-name, .label-description')].map((e) => e.textContent.trim()).filter((t) => t).join(' ')) : [];`,
  );
  return rows ?? [];
}

/** The same rows, each with the codicon classes of its icon (`codicon-loading codicon-modifier-spin` spins). A row
 * drawn again may keep an empty description element from the row it was reused from: it shows nothing, so it is left out. */
export async function serversViewRowsWithIcons(): Promise<{ text: string; icon: string[] }[]> {
  const [rows] = await pageQuery<{ text: string; icon: string[] }[]>(
    '.monaco-workbench',
    `const pane = [...document.querySelectorAll('.pane')].find((p) => p.querySelector('.pane-header')?.innerText.trim().startsWith('Servers'));
     return pane ? [...pane.querySelectorAll('.pane-body .monaco-list-row')].map((row) => ({
       text: [...row.querySelectorAll('.label-name, .label-description')].map((e) => e.textContent.trim()).filter((t) => t).join(' '),
       icon: [...(row.querySelector('.custom-view-tree-node-item-icon')?.classList ?? [])].filter((c) => c.startsWith('codicon-')),
     })) : [];`,
  );
  return rows ?? [];
}
