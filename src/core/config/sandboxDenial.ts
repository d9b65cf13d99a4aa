// A denial of a confined server's sandbox, as the host shows it and as "Allow and Restart" writes it into mcp.json:
// the exact rule that allows it, in VS Code's keys (`sandbox.filesystem.allowWrite`, `sandbox.network.allowedDomains`).
export type SandboxDenial =
  /** `allow`: what the rule names when it is not `path` (a file not made yet: the sandbox allows only what exists, so its folder). */
  | { kind: 'write'; path: string; allow?: string }
  | { kind: 'read'; path: string }
  | { kind: 'network'; host: string };

/** The rule that allows a denial, or undefined when the format has none (a read of a hidden file: remove it from denyRead, or move it). */
export function ruleFor(denial: SandboxDenial): { key: 'allowWrite' | 'allowedDomains'; value: string } | undefined {
  if (denial.kind === 'write') return { key: 'allowWrite', value: denial.allow ?? denial.path };
  if (denial.kind === 'network') return { key: 'allowedDomains', value: denial.host };
  return undefined;
}

export function describeDenial(denial: SandboxDenial): string {
  switch (denial.kind) {
    case 'write':
      return `writing ${denial.path}`;
    case 'read':
      return `reading ${denial.path}`;
    case 'network':
      return `connecting to ${denial.host}`;
  }
}
