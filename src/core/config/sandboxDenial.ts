// A denial of a confined server's sandbox, as the runtime reported it (never as the server's output says), as the host
// shows it, and what "Allow and Restart" would write into mcp.json: exactly what was refused, in VS Code's keys
// (`sandbox.filesystem.allowWrite`, `sandbox.network.allowedDomains`), or why nothing may be written.
export type SandboxDenial = ({ kind: 'write'; path: string } | { kind: 'network'; host: string; port: number }) & {
  /** The rule's value: the path, or the host (with its port where the host is this machine or a port not 80/443). */
  allow?: string;
  /** Why no rule is offered (it would cover the home folder, a protected path, …). */
  refused?: string;
};

/** The rule that allows a denial, or undefined when none is offered. */
export function ruleFor(denial: SandboxDenial): { key: 'allowWrite' | 'allowedDomains'; value: string } | undefined {
  if (denial.allow === undefined) return undefined;
  return { key: denial.kind === 'write' ? 'allowWrite' : 'allowedDomains', value: denial.allow };
}

export function describeDenial(denial: SandboxDenial): string {
  return denial.kind === 'write' ? `writing ${denial.path}` : `connecting to ${denial.host}:${denial.port}`;
}
