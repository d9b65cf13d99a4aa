// Which addresses a remote session may contact. Servers hand us URLs (protected resource metadata, authorization and
// token endpoints, registration): none is followed unless it is https, or http on this machine or on the server's
// own origin as configured. file:, javascript:, command:, vscode: and the like never reach fetch or the browser.

const LOOPBACK = /^((?:[a-z0-9-]+\.)*localhost\.?|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|\[::ffff:(?:7f[0-9a-f]{2}:[0-9a-f]{1,4}|127(?:\.\d{1,3}){3})\])$/i;

export const isLoopbackHost = (hostname: string): boolean => LOOPBACK.test(hostname);

function parse(url: string | URL): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * https anywhere; http only on loopback or on the configured server's own origin. Never file:, javascript:, command:, …
 * A server that is not on this machine never makes us contact this machine (a local service, before any dialog).
 */
export function isAllowedUrl(url: string | URL, serverUrl: string): boolean {
  const parsed = parse(url);
  const server = parse(serverUrl);
  if (!parsed || !server) return false;
  if (isLoopbackHost(parsed.hostname) && !isLoopbackHost(server.hostname)) return false;
  if (parsed.protocol === 'https:') return true;
  if (parsed.protocol !== 'http:') return false;
  return isLoopbackHost(parsed.hostname) || parsed.origin === server.origin;
}

/** An endpoint written in `auth` (issuer, token endpoint, client metadata): https, or http on this machine for a server on this machine. */
export function isAllowedAuthEndpoint(url: string, serverUrl: string): boolean {
  const parsed = parse(url);
  const server = parse(serverUrl);
  if (!parsed || !server) return false;
  if (isLoopbackHost(parsed.hostname) && !isLoopbackHost(server.hostname)) return false;
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname));
}
