// The SDK Client, with the log level sent the 2026-07-28 way: that revision deprecates `logging/setLevel` (SEP-2577)
// and carries the level a request wants in its `_meta` (`io.modelcontextprotocol/logLevel`). Once a level is set,
// every request (and notification) of a 2026-07-28 session carries it; 2025 sessions are untouched (the SDK adds no
// envelope to them) and keep `logging/setLevel`.
// It also lends the host's raw request path (the tasks extension) what the SDK keeps protected: the request envelope
// it sends, and its own dispatch of a request a server embeds in a result.
// The capabilities in that envelope leave out the 2025-11-25 `tasks` capability (requests the server sends as tasks,
// serverTaskRequests.ts): declared in `initialize` to a 2025 server, it means nothing on the 2026-07-28 wire.
// It also caps what a list walk keeps (listBudget.lazy.ts): the SDK walks every page of tools, prompts and skills
// itself, so the cap sits in that walk, and ends it at the first page that does not fit.
import { Client, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, ProtocolError, ProtocolErrorCode, type ClientContext, type LoggingLevel, type Result } from '@modelcontextprotocol/client';
import { DEFAULT_LIST_LIMITS, ListBudget, type ListLimits } from './listBudget.lazy';

type PageFetcher = (cursor: string | undefined) => Promise<{ nextCursor?: string }>;
type PageWalker = (method: string, fetchPage: PageFetcher, items: (page: object) => unknown[]) => Promise<object>;

export class LevelledClient extends Client {
  /** The level to ask for on each request of a 2026-07-28 session; undefined: none is sent. */
  logLevel: LoggingLevel | undefined;
  /** What one list walk may keep. */
  listLimits: ListLimits = DEFAULT_LIST_LIMITS;
  /** Why the last walk of a list method stopped short, by method (`tools/list`); absent when it was whole. */
  readonly listCuts = new Map<string, string>();
  /** Told when a walk stops short, with the method and why. */
  onListCut?: (method: string, why: string) => void;

  constructor(...args: ConstructorParameters<typeof Client>) {
    super(...args);
    // The SDK's aggregate walk (its `_walkPages`, private): each page is let through the walk's budget first.
    // An SDK without it keeps working, uncapped (attacks40Caps.test.ts then fails).
    const self = this as unknown as { _walkPages?: PageWalker };
    if (typeof self._walkPages !== 'function') return;
    const walk = self._walkPages.bind(this);
    self._walkPages = async (method, fetchPage, items) => {
      const budget = new ListBudget(this.listLimits);
      const result = await walk(
        method,
        async (cursor) => {
          const page = await fetchPage(cursor);
          if (!budget.admit(items(page))) delete page.nextCursor;
          return page;
        },
        items,
      );
      if (budget.cut) {
        this.listCuts.set(method, budget.cut);
        this.onListCut?.(method, budget.cut);
      } else this.listCuts.delete(method);
      return result;
    };
  }

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    let envelope = super._outboundMetaEnvelope();
    const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
    if (envelope && capabilities && typeof capabilities === 'object' && 'tasks' in capabilities) {
      const modern = { ...(capabilities as Record<string, unknown>) };
      delete modern.tasks;
      envelope = { ...envelope, [CLIENT_CAPABILITIES_META_KEY]: modern };
    }
    return envelope && this.logLevel !== undefined ? { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel } : envelope;
  }

  /** The `_meta` the SDK puts on each request of a 2026-07-28 session (protocol version, client info, capabilities, level). */
  requestEnvelope(): Record<string, unknown> {
    return { ...this._outboundMetaEnvelope() };
  }

  /**
   * Answers a request a server embeds (`inputRequests` of a result or of a task) with the handler registered for its
   * method, as the SDK answers `input_required`: the same handlers, consent and dialogs as a request on the wire.
   */
  async answerEmbedded(key: string, method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Result> {
    const handler = this._getRequestHandler(method);
    if (!handler) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `This client does not answer ${method} for this server.`);
    const unavailable = () => Promise.reject(new Error('Not available while answering an embedded request.'));
    const context = { sessionId: this.transport?.sessionId, mcpReq: { id: key, method, _meta: params?._meta, signal, send: unavailable, notify: unavailable } };
    return handler({ jsonrpc: '2.0', id: key, method, ...(params && { params }) }, this.buildContext(context as unknown as ClientContext));
  }
}
