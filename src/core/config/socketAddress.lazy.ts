// The socket or named pipe of a `unix:` or `pipe:` server URL, as VS Code writes them: `unix:///path.sock#/mcp`,
// `pipe:///name#/mcp` (the fragment is the HTTP path, `/` when there is none). Read where a start is planned and run.

import type { SocketAddress } from './launchPlan';

/** The host the SDK is given for a socket's server: its requests are routed to the socket (a `.localhost` name: never the network). */
export const SOCKET_ORIGIN = 'http://mcp-socket.localhost';

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The socket or pipe a `unix:` or `pipe:` URL names; undefined for any other URL (or one without a path). */
export function socketAddress(value: string): SocketAddress | undefined {
  const url = parseUrl(value);
  if (!url || (url.protocol !== 'unix:' && url.protocol !== 'pipe:') || url.host !== '' || url.search !== '') return undefined;
  let name: string;
  let httpPath: string;
  try {
    name = decodeURIComponent(url.pathname);
    httpPath = url.hash ? decodeURI(url.hash.slice(1)) : '/';
  } catch {
    return undefined;
  }
  if (!httpPath.startsWith('/')) return undefined;
  if (url.protocol === 'pipe:') {
    const pipe = name.replace(/^\/+/, '');
    return pipe && !pipe.includes('/') && !pipe.includes('\\') ? { kind: 'pipe', socketPath: `\\\\.\\pipe\\${pipe}`, httpPath } : undefined;
  }
  // `unix:///C:/x.sock` on Windows: the drive's path.
  const socketPath = /^\/[A-Za-z]:\//.test(name) ? name.slice(1) : name;
  return socketPath.length > 1 ? { kind: 'unix', socketPath, httpPath } : undefined;
}

