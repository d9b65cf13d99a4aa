// Which addresses a remote session may contact. Servers hand us URLs (protected resource metadata, authorization and
// token endpoints, registration): none is followed unless it is https, or http on this machine or on the server's
// own origin as configured. file:, javascript:, command:, vscode: and the like never reach fetch or the browser.

/** A URL refused before anything was sent to it. */
export class RefusedUrlError extends Error {}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** https anywhere; http only on loopback or on the configured server's own origin. Never file:, javascript:, command:, … */
export function isAllowedUrl(url: string | URL, serverUrl: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return true;
  if (parsed.protocol !== 'http:') return false;
  return LOOPBACK.test(parsed.hostname) || parsed.origin === new URL(serverUrl).origin;
}

export function assertAllowedUrl(url: string | URL, serverUrl: string, what: string): void {
  if (!isAllowedUrl(url, serverUrl)) {
    const shown = String(url).slice(0, 120);
    throw new RefusedUrlError(`Refused ${what} ${shown}: only https addresses (or http on this machine) are contacted.`);
  }
}

