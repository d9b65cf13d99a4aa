// The command line of `mcp-host`: its usage text and the parsing of its options.

export const USAGE = `usage: mcp-host [--config FILE] [--yes] [--json] [--verbose] <command>

  list                            the servers, each started: state, protocol revision, what it offers
  tools <server>                  its tools
  call <server> <tool> [JSON]     call a tool with JSON arguments (asks first, unless --yes)
  prompts <server>                its prompts
  prompt <server> <name> [JSON]   get a prompt, with JSON arguments
  resources <server>              its resources and resource templates
  read <server> <uri>             read a resource
  search <text>                   servers of the MCP registry matching the text: name, version, description
  add <registry name>             write a registry server into .vscode/mcp.json (secrets become \${input:…} inputs)
  gateway                         serve the servers' tools, prompts and resources to other agents on 127.0.0.1
                                  (prints MCP_HOST_GATEWAY_URL and the token; each tool call asks here, unless --yes)

  --config FILE   the mcp.json to read (default: .vscode/mcp.json, then mcp.json, then .mcp.json, in the current directory)
  --yes           trust the servers and allow every tool call without asking
  --json          print results as JSON
  --verbose       print the servers' logs (stderr)
  --registry URL  the MCP registry for search and add (default: $MCP_HOST_REGISTRY, then the official registry)
  --user          add: write into the user's mcp.json (or $MCP_HOST_USER_CONFIG) instead of .vscode/mcp.json
  --cursor TEXT   search: the next page, as the previous one printed
  --port N        gateway: the port to listen on (default: a free one)`;

export interface CliOptions {
  config?: string;
  yes: boolean;
  json: boolean;
  verbose: boolean;
  command: string[];
  registry?: string;
  user?: boolean;
  cursor?: string;
  port?: number;
}

export function parseArgs(argv: string[]): CliOptions | string {
  const options: CliOptions = { yes: false, json: false, verbose: false, command: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--config') options.config = argv[++i];
    else if (arg === '--yes' || arg === '-y') options.yes = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--registry') options.registry = argv[++i];
    else if (arg === '--user') options.user = true;
    else if (arg === '--cursor') options.cursor = argv[++i];
    else if (arg === '--port') {
      const port = Number(argv[++i]);
      if (!Number.isInteger(port) || port < 0 || port > 65535) return `--port takes a port number (0 to 65535).\n${USAGE}`;
      options.port = port;
    }
    else if (arg === '--help' || arg === '-h') return USAGE;
    else if (arg.startsWith('--')) return `Unknown option ${arg}\n${USAGE}`;
    else options.command.push(arg);
  }
  return options.command.length ? options : USAGE;
}
