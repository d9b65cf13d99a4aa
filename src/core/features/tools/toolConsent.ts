// When a tool call needs the user's consent, and what is remembered. Decisions live in the one PermissionStore
// (kind 'tool', key `<consent subject of the server>/<tool name>`, so an edited definition asks again); the dialog
// that asks is a port, so tests answer it.
import type { PermissionStore } from '../../host/permissionStore';
import type { Tool } from '../../host/serverInfo';
import type { ConsentAnswer } from '../userQuestions';
import { approvalOf, type ToolControlled } from './toolSwitches';

/** What the user is shown before a call. */
export interface ToolConsentQuestion {
  serverName: string;
  /** The name the call uses: what the user must judge. */
  toolName: string;
  /** The display name the server chose: secondary, as it can claim anything. */
  toolTitle?: string;
  /** The arguments the call would send, pretty-printed JSON. */
  argumentsJson: string;
  /** The arguments came with the command that started the call (a link, a keybinding, another extension). */
  argumentsFromCaller: boolean;
  readOnly: boolean;
  destructive: boolean;
  /** Who asks, when it is not the user or the model, e.g. the view of a tool (MCP Apps). */
  requestedBy?: string;
  /** Another program asks through the gateway (its own name for itself): "always" holds for it alone. */
  caller?: string;
}

export interface ToolConsentDeps {
  permissions: PermissionStore;
  /** Asks the user; undefined = dismissed. */
  ask(question: ToolConsentQuestion): Promise<ConsentAnswer | undefined>;
  /** The user's setting: tools that declare `readOnlyHint` run without asking. */
  autoAllowReadOnly(): boolean;
}

export interface ToolCallSubject {
  /** The server, for its approval policy (see approvalOf); absent: the read-only setting alone decides. */
  server?: ToolControlled;
  /** The server's definition as written (`consentSubject`): what an "always allow" is remembered for. */
  consentSubject: string;
  serverName: string;
  tool: Tool;
  arguments: Record<string, unknown>;
  /**
   * The arguments came with the command that started the call, not from the user or the model: the user is asked
   * even when an "always allow" or the read-only setting would run the tool, so a link cannot run it with arguments
   * nobody saw.
   */
  argumentsFromCaller?: boolean;
  /**
   * The user confirmed this very call already, with its arguments in front of them (the review step of the Call Tool
   * form, a re-run from a result): asking again would be a second consent for the same decision. A saved "deny" still
   * refuses it.
   */
  confirmedByUser?: boolean;
  /** Who asks for the call, when it is not the user or the model (shown in the dialog). */
  requestedBy?: string;
  /**
   * Another program asks through the gateway (its name): the user's own decisions for the tool hold, and "always"
   * is remembered for that client alone (see callerPermissionKey).
   */
  caller?: string;
}

export type ConsentOutcome =
  | { allowed: true; reason: 'remembered' | 'read-only' | 'never-ask' | 'once' | 'always' | 'confirmed' }
  | { allowed: false; reason: 'remembered' | 'denied' | 'dismissed' };

export type AllowedReason = Extract<ConsentOutcome, { allowed: true }>['reason'];

/** When a call runs without asking on the server's word or the user's policy, in words for where the call is shown. */
export function ranWithoutAsking(serverName: string, reason: AllowedReason): string | undefined {
  if (reason === 'read-only') return `ran without asking: ${serverName} marks it read-only`;
  if (reason === 'never-ask') return `ran without asking: you chose "never ask" for ${serverName}`;
  return undefined;
}

export const toolPermissionKey = (consentSubject: string, toolName: string): string => `${consentSubject}/${toolName}`;

/** What an "always" a gateway client was given is remembered under: the tool's key, for that client. */
export const callerPermissionKey = (consentSubject: string, toolName: string, caller: string): string => `${toolPermissionKey(consentSubject, toolName)}#gateway:${caller}`;

export class ToolConsent {
  constructor(private readonly deps: ToolConsentDeps) {}

  /** What `check` would decide without asking: run, refuse, or ask the user. */
  decide(call: ToolCallSubject): ConsentOutcome | 'ask' {
    const general = this.deps.permissions.get('tool', toolPermissionKey(call.consentSubject, call.tool.name));
    const forCaller = call.caller === undefined ? undefined : this.deps.permissions.get('tool', callerPermissionKey(call.consentSubject, call.tool.name, call.caller));
    if (general?.decision === 'deny' || forCaller?.decision === 'deny') return { allowed: false, reason: 'remembered' };
    const remembered = forCaller ?? general;
    if (call.confirmedByUser) return { allowed: true, reason: 'confirmed' };
    if (call.argumentsFromCaller === true) return 'ask';
    if (remembered?.decision === 'allow') return { allowed: true, reason: 'remembered' };
    const readOnlySetting = this.deps.autoAllowReadOnly();
    const policy = call.server ? approvalOf(call.server, readOnlySetting, call.consentSubject) : readOnlySetting ? 'askUnlessReadOnly' : 'askEveryCall';
    if (policy === 'neverAsk') return { allowed: true, reason: 'never-ask' };
    // A server can claim anything: the hint only counts when the user chose to rely on it (the setting, or the
    // server's policy), and never together with a destructive hint.
    const annotations = call.tool.annotations ?? {};
    if (annotations.readOnlyHint === true && annotations.destructiveHint !== true && policy === 'askUnlessReadOnly') {
      return { allowed: true, reason: 'read-only' };
    }
    return 'ask';
  }

  async check(call: ToolCallSubject): Promise<ConsentOutcome> {
    const decided = this.decide(call);
    if (decided !== 'ask') return decided;
    const key = call.caller === undefined ? toolPermissionKey(call.consentSubject, call.tool.name) : callerPermissionKey(call.consentSubject, call.tool.name, call.caller);
    const argumentsFromCaller = call.argumentsFromCaller === true;
    const annotations = call.tool.annotations ?? {};
    const answer = await this.deps.ask({
      serverName: call.serverName,
      toolName: call.tool.name,
      toolTitle: call.tool.title ?? annotations.title,
      argumentsJson: JSON.stringify(call.arguments, null, 2),
      argumentsFromCaller,
      readOnly: annotations.readOnlyHint === true,
      // The spec's default: a tool that does not say it is read-only may be destructive unless it says otherwise.
      destructive: annotations.readOnlyHint !== true && annotations.destructiveHint !== false,
      ...(call.requestedBy === undefined ? {} : { requestedBy: call.requestedBy }),
      ...(call.caller === undefined ? {} : { caller: call.caller }),
    });
    if (answer === 'always') {
      await this.deps.permissions.set({
        kind: 'tool',
        key,
        label: `Tool "${call.tool.name}" of server "${call.serverName}"${call.caller === undefined ? '' : `, for ${call.caller} (through the gateway)`}`,
        decision: 'allow',
        scope: 'workspace',
      });
      return { allowed: true, reason: 'always' };
    }
    if (answer === 'once') return { allowed: true, reason: 'once' };
    return { allowed: false, reason: answer === 'deny' ? 'denied' : 'dismissed' };
  }

  /** Forgets every remembered tool decision; returns how many there were. */
  reset(): Promise<number> {
    return this.deps.permissions.reset('tool');
  }
}
