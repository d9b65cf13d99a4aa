// `elicitation/create`: a server asks the user for information, as a form (a restricted JSON schema) or by sending
// them to a URL. Decline, cancel and accept stay distinct; a schema outside the allowed subset is refused with
// -32602 instead of being shown as a broken form; a URL opens only after the user agreed; a server asking too often
// gets errors, not a pile of dialogs.
import {
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type ElicitRequestParams,
  type ElicitResult,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../config/serverDefinition';
import type { ActiveToolCalls } from '../tools/activeToolCalls';
import { askedDuring } from '../tools/askedDuring';
import type { ClientFeature, SessionContext } from '../../host/clientFeature';
import type { PermissionStore } from '../../host/permissionStore';
import type { ServerLog } from '../../common/log';
import { consentSubject } from '../consentSubject';
import { formFromSchema, validateForm } from './formModel.lazy';
import { type FormModel, type FormOutcome } from './form';
import type { InteractionQueue } from '../../host/interactionQueue';
import { RATE_LIMITED, RateLimiter } from '../../common/rateLimiter';

export interface FormRequest {
  serverName: string;
  /** The server's message: what it asks for and why. */
  message: string;
  form: FormModel;
  /** Set when a tool of this server is running in chat: which chat request the question belongs to. */
  chatContext?: string;
  signal: AbortSignal;
}

export interface UrlRequest {
  serverName: string;
  message: string;
  url: string;
  /** The host the URL leads to, as the user must judge it (punycode for international names). */
  domain: string;
  chatContext?: string;
}

/** How the user is asked (the VS Code layer: a quick-input form, a modal, the browser). */
export interface ElicitationUi {
  askForm(request: FormRequest): Promise<FormOutcome>;
  /** true = open it, false = declined, undefined = dismissed. */
  confirmOpenUrl(request: UrlRequest): Promise<boolean | undefined>;
  openUrl(url: string): Promise<boolean>;
}

export interface ElicitationFeatureDeps {
  /** Off: the capability is not declared to this server. */
  enabled(definition: ServerDefinition): boolean;
  /** Requests (forms and URLs alike) this server may make per minute; more get a JSON-RPC error, not a dialog. */
  rateLimitPerMinute(definition: ServerDefinition): number;
  ui: ElicitationUi;
  permissions: PermissionStore;
  activeToolCalls: ActiveToolCalls;
  queue: InteractionQueue;
  rateLimiter?: RateLimiter;
}

/**
 * Hands the handler the params exactly as sent. The SDK checks their shape first, but its schemas drop keywords they
 * do not know (`pattern`, `multipleOf`, …): a form must refuse those constraints, not silently ignore them.
 */
const AS_SENT: StandardSchemaV1<unknown, ElicitRequestParams> = {
  '~standard': { version: 1, vendor: 'mcp-host', validate: (value) => ({ value: value as ElicitRequestParams }) },
};

export class ElicitationFeature implements ClientFeature {
  private readonly limiter: RateLimiter;

  constructor(private readonly deps: ElicitationFeatureDeps) {
    this.limiter = deps.rateLimiter ?? new RateLimiter();
  }

  capabilities(definition: ServerDefinition): ClientCapabilities {
    return this.deps.enabled(definition) ? { elicitation: { form: {}, url: {} } } : {};
  }

  install(session: SessionContext): void {
    if (!this.deps.enabled(session.definition)) return;
    const { handlers, log } = session;
    handlers.setRequestHandler('elicitation/create', { params: AS_SENT }, (params, ctx) =>
      this.elicit(session, params as ElicitRequestParams, ctx.mcpReq.signal),
    );
    session.answerAsTask?.('elicitation/create', (params, signal) => this.elicit(session, params as ElicitRequestParams, signal));
    handlers.setNotificationHandler('notifications/elicitation/complete', (n) => log.info(`The server says the page it asked you to open is done with (${n.params.elicitationId})`));
  }

  /** Answers one request; throws a ProtocolError for requests that cannot be shown. */
  async elicit(
    session: Omit<SessionContext, 'client'>,
    params: ElicitRequestParams,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<ElicitResult> {
    const { definition, log } = session;
    const limit = this.deps.rateLimitPerMinute(definition);
    const slot = this.limiter.tryAcquire(definition.id, limit);
    if (!slot.ok) {
      const retry = Math.ceil(slot.retryAfterMs / 1000);
      const message = `Rate limit: at most ${limit} elicitation requests per minute (setting mcpHost.elicitation.rateLimit); retry in ${retry} s.`;
      log.warn(`Elicitation refused: ${message}`);
      throw new ProtocolError(RATE_LIMITED, message);
    }
    if (this.deps.permissions.get('elicitation', consentSubject(definition.scope, definition.name, definition.raw))?.decision === 'deny') {
      log.info('Elicitation declined without asking: you chose to stop answering this server (MCP Host: Manage Permissions… undoes it)');
      return { action: 'decline' };
    }
    const call = this.deps.activeToolCalls.of(definition.id).at(-1);
    const chatContext = call ? askedDuring(call) : undefined;
    if (params.mode === 'url') return this.elicitUrl(definition, params, log, chatContext, signal);
    const built = formFromSchema(params.requestedSchema);
    if (!built.ok) {
      log.warn(`Elicitation refused: unsupported requestedSchema: ${built.error}`);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unsupported requestedSchema: ${built.error}`);
    }
    const outcome = await this.deps.queue.run(async () =>
      signal.aborted
        ? ({ action: 'cancel' } as const)
        : this.deps.ui.askForm({ serverName: definition.name, message: params.message, form: built.form, chatContext, signal }),
    );
    log.info(`Its question (a form): ${outcome.action === 'accept' ? 'answered' : outcome.action === 'decline' ? 'declined' : 'cancelled'}`);
    if (outcome.action === 'decline') {
      if (outcome.always) await this.block(definition);
      return { action: 'decline' };
    }
    if (outcome.action === 'cancel') return { action: 'cancel' };
    const checked = validateForm(built.form, outcome.values);
    if (!checked.ok) throw new ProtocolError(ProtocolErrorCode.InternalError, `The form produced an invalid answer: ${checked.message}`);
    // The answer goes to the server in traced traffic, and the server may echo it back: a secret stays out of the log.
    for (const field of built.form.fields) {
      const value = checked.values[field.name];
      if (field.secretLike && typeof value === 'string') session.redact(value);
    }
    return { action: 'accept', content: checked.values as ElicitResult['content'] };
  }

  private async elicitUrl(
    definition: ServerDefinition,
    params: Extract<ElicitRequestParams, { mode: 'url' }>,
    log: ServerLog,
    chatContext: string | undefined,
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    let url: URL;
    try {
      url = new URL(params.url);
    } catch {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Not a valid URL: ${params.url}`);
    }
    // Other schemes (command:, file:, vscode:) could act inside the editor instead of showing a page.
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Only http and https URLs can be opened (got ${url.protocol}).`);
    const answer = await this.deps.queue.run(async () =>
      signal.aborted
        ? undefined
        : this.deps.ui.confirmOpenUrl({ serverName: definition.name, message: params.message, url: url.href, domain: url.hostname, chatContext }),
    );
    if (answer === false) {
      log.info(`You declined to open the page it asked for (${url.hostname})`);
      return { action: 'decline' };
    }
    if (answer === undefined) {
      log.info(`The page it asked you to open was not opened: the question was closed (${url.hostname})`);
      return { action: 'cancel' };
    }
    const opened = await this.deps.ui.openUrl(url.href);
    log.info(`You agreed to open the page it asked for: ${opened ? 'opened' : 'could not open'} a page on ${url.hostname}`);
    return opened ? { action: 'accept' } : { action: 'cancel' };
  }

  private async block(definition: ServerDefinition) {
    await this.deps.permissions.set({
      kind: 'elicitation',
      key: consentSubject(definition.scope, definition.name, definition.raw),
      label: `Questions from server "${definition.name}" (${definition.scope.label}): always declined`,
      decision: 'deny',
      scope: 'global',
    });
  }
}
