// A remote server's address: an http(s) URL, or (as VS Code writes them) HTTP over a Unix socket,
// `unix:///path/to/server.sock#/mcp`, or over a Windows named pipe, `pipe:///name#/mcp` (./socketAddress.lazy.ts reads them).

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * What a remote server's `url` may be: http(s), or a socket or named pipe. Judged by its scheme (the plan reads the
 * socket's path, and says when there is none): this runs on activation, for every server.
 */
export function isServerUrl(value: string): boolean {
  const protocol = parse(value)?.protocol;
  return protocol === 'http:' || protocol === 'https:' || ((protocol === 'unix:' || protocol === 'pipe:') && value.slice(protocol.length, protocol.length + 3) === '///');
}
