// The trust question as the user reads it: its message, its detail and its buttons, in order, with the answer each
// gives. The native dialog (src/vscode/trust/trustDialogs.lazy.ts) shows exactly this; tests read it from here. For a
// workspace stdio server that is not set to run confined, "Run Confined" comes first, with what confined allows this
// server (the sandbox rules of the plan it would run); where this machine cannot confine, it is not offered and one
// line says why.
import type { TrustAnswer } from '../host/hostPorts';
import { plainText } from './serverText';

/** Run Confined for one server: what it would allow (lines of describeSandbox), or why this machine cannot confine it. */
export type ConfinedOffer = { allows: readonly string[] } | { unavailable: string };

export interface TrustQuestion {
  serverName: string;
  /** Where it is defined, e.g. "my-folder/.vscode/mcp.json". */
  source: string;
  /** What would run, in full: the command line, or the URL, and everything else the plan holds. */
  detail: string;
  /** What runs and where, in a line or two: the top of a question that offers Run Confined (`detail` follows in full). */
  what?: string;
  /** Only for a workspace stdio server that is not set to run confined. */
  confined?: ConfinedOffer;
  /** What runs on this machine, unconfined whatever is chosen, for a server that cannot be confined (a remote server's `headersHelper`). */
  runsUnconfined?: string;
}

/** Several new servers of one folder, asked about together. */
export interface TrustManyQuestion {
  /** The folder's name. */
  folder: string;
  /** Where they are defined, e.g. "my-folder/.vscode/mcp.json". */
  source: string;
  servers: TrustQuestion[];
}

/** Run every server (confined where offered, with 'confined'), choose which (a pick follows), or run none. */
export type TrustManyAnswer = 'confined' | 'all' | 'choose' | 'none';

export interface RenderedQuestion<A> {
  message: string;
  detail: string;
  buttons: { label: string; answer: A }[];
}

export const RUN_CONFINED = 'Run Confined';

const RUNS_CONFINED = 'runs in a sandbox, and "sandboxEnabled": true is written into its entry in mcp.json (so the file says what runs, and VS Code runs it the same way)';
const RUNS_CONFINED_WHERE = 'it runs in a sandbox, where it';
const WRITES_KEY = 'and "sandboxEnabled": true is written into its entry in mcp.json, so the file says what runs.';
const TRUST_CLOSING = 'Only trust servers from sources you trust.';

const offered = (c: ConfinedOffer | undefined): c is { allows: readonly string[] } => !!c && 'allows' in c;
const unavailable = (c: ConfinedOffer | undefined): string | undefined => (c && 'unavailable' in c ? c.unavailable : undefined);

export function trustQuestionText(q: TrustQuestion): RenderedQuestion<TrustAnswer> {
  const message = `Trust and run the MCP server "${plainText(q.serverName)}"?`;
  if (offered(q.confined)) {
    // The first screen (a dialog shows about 30 lines): what runs, where, and what each choice means; then it all.
    return {
      message,
      detail: [
        `Defined in ${q.source}.${q.what ? `\n\n${q.what}` : ''}`,
        `${RUN_CONFINED}: ${RUNS_CONFINED_WHERE}\n${q.confined.allows.map((l) => `• ${l.replace(/^Confined: /, '')}`).join('\n')}\n${WRITES_KEY}`,
        'Trust: it runs as defined, with your permissions.',
        `In full, as defined:\n${q.detail}`,
        TRUST_CLOSING,
      ].join('\n\n'),
      buttons: [
        { label: RUN_CONFINED, answer: 'confined' },
        { label: 'Trust', answer: true },
        { label: 'Do Not Trust', answer: false },
      ],
    };
  }
  const why = unavailable(q.confined);
  return {
    message,
    detail: `Defined in ${q.source}. It will run with your permissions:\n\n${q.detail}\n\n${why ? `${RUN_CONFINED} is not offered: ${why}\n\n` : ''}${TRUST_CLOSING}`,
    buttons: [
      { label: 'Trust', answer: true },
      { label: 'Do Not Trust', answer: false },
    ],
  };
}

export function trustManyQuestionText(q: TrustManyQuestion): RenderedQuestion<TrustManyAnswer> {
  const n = q.servers.length;
  const confinable = q.servers.filter((s) => offered(s.confined));
  const why = q.servers.map((s) => unavailable(s.confined)).find((w) => w !== undefined);
  const list = q.servers
    .map((s) => `• ${plainText(s.serverName)}: ${s.detail}${offered(s.confined) ? `\n  If confined: ${s.confined.allows.map((l) => l.replace(/^Confined: /, '')).join('; ')}` : ''}`)
    .join('\n\n');
  const others = n - confinable.length;
  // What runs here whatever the choice: said on the button's own line, not only in the list above it.
  const unconfined = q.servers.filter((s) => !offered(s.confined) && s.runsUnconfined).map((s) => `"${plainText(s.serverName)}"'s headersHelper runs unconfined, with your permissions: ${plainText(s.runsUnconfined!)}`);
  const confinedLine = confinable.length
    ? `\n\nRun All ${n} Confined: ${confinable.length === n ? 'each' : `${confinable.map((s) => `"${plainText(s.serverName)}"`).join(', ')}`} ${RUNS_CONFINED}${others ? `; the other${others === 1 ? '' : 's'} run${others === 1 ? 's' : ''} as defined (a remote server, or one already set to run confined)` : ''}${unconfined.length ? `; ${unconfined.join('; ')}` : ''}.`
    : why
      ? `\n\n${RUN_CONFINED} is not offered: ${why}`
      : '';
  const all = `Trust and Run All ${n}`;
  return {
    message: `Trust and run the ${n} new MCP servers of "${plainText(q.folder)}"?`,
    detail: `Defined in ${q.source}. ${confinable.length ? `"${all}" runs each` : 'Each runs'} with your permissions:\n\n${list}${confinedLine}\n\n${TRUST_CLOSING}`,
    buttons: [
      ...(confinable.length ? [{ label: `Run All ${n} Confined`, answer: 'confined' as const }] : []),
      { label: all, answer: 'all' },
      { label: 'Choose Which to Run…', answer: 'choose' },
      { label: 'Run None', answer: 'none' },
    ],
  };
}
