// What the browser checks share (the real demo, npmRunDemo.test.ts; the Marketplace install, marketplaceInstall.test.ts):
// the launcher's helpers (scripts/code-server-launcher.mjs, plain JavaScript) and an address opened in Debian's
// Chromium as a user's browser opens it, with the launcher's page hook on that page, so that pageRequests.ts and
// quickStartSteps.ts act on it as they do in the integration suites.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { repoRoot } from '../unit/helpers';

/** What the browser checks use of scripts/code-server-launcher.mjs. */
export interface Launcher {
  /** Node 24 and code-server in .cache/, and Debian's chromium. */
  ensureTools(): Promise<{ node: string; entry: string }>;
  makeSandbox(prefix: string, settings?: Record<string, unknown>): { root: string; userDataDir: string; extensionsDir: string; env: NodeJS.ProcessEnv };
  startCodeServer(options: {
    tools: { node: string; entry: string };
    sandbox: { root: string; userDataDir: string; extensionsDir: string; env: NodeJS.ProcessEnv };
    port: number;
    trust: boolean;
    logFile?: string;
    extraArgs?: string[];
  }): Promise<{ child: { pid?: number }; url: string; stop(): Promise<void> }>;
  freePort(): Promise<number>;
  runCommand(cmd: string, args: string[], options?: object): Promise<void>;
  removeTree(dir: string): void;
  startPageHook(page: Page, serverPid: number): Promise<{ url: string; close(): void }>;
}

export const loadLauncher = async (): Promise<Launcher> =>
  (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'code-server-launcher.mjs')).href)) as Launcher;

/**
 * Opens `address` in Debian's Chromium with a profile of its own, and points the page helpers at it (the page hook's
 * address in MCPHOST_TEST_PAGE). `serverPid`: code-server's (or its parent's) process, for the hook's CPU figures.
 */
export async function openInChromium(launcher: Launcher, address: string, serverPid: number): Promise<{ close(): Promise<void> }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-browser-'));
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') },
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const hook = await launcher.startPageHook(page, serverPid);
  process.env.MCPHOST_TEST_PAGE = hook.url;
  await page.goto(address);
  return {
    close: async () => {
      hook.close();
      await browser.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
