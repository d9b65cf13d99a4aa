// The clients connected to the gateway: at most GATEWAY_LIMITS.maxClients at once, each with at most
// maxConcurrentPerClient requests in flight (a flood is refused, not queued). A 2025-era client is one session (from
// its `initialize` to its end); a 2026-era client has no session, so it counts as connected while it has a request in
// flight or sent one in the last few minutes. Its name is its own word (clientInfo): kept short and plain, and shown
// only as that client's claim.
import type { Disposable } from '../../common/events';
import { plainText, truncate } from '../../presentation/serverText';
import { GATEWAY_LIMITS } from './gatewayRequestCheck';

/** How long a 2026-era client counts as connected after its last request. */
export const MODERN_CLIENT_IDLE_MS = 5 * 60_000;

export interface GatewayClient {
  /** The session's id (2025 era), or `modern:<name>`. */
  readonly key: string;
  /** The name the client gave, as plain one-line text. */
  name: string;
  readonly era: 'legacy' | 'modern';
  inFlight: number;
  lastSeen: number;
}

/** The name of the client that comes through the server definition offered to VS Code (it holds the editor's token). */
export const EDITOR_AGENT_NAME = "VS Code's agent";

/**
 * A client's own name, made safe to show: one plain line, capped; a client that gives none is called so. The client
 * holding the editor's token is VS Code's agent whatever it says; another that calls itself so is told apart, so
 * that no program with the gateway token gets what the user allowed VS Code's agent.
 */
export const clientLabel = (raw: unknown, editor = false): string => {
  if (editor) return EDITOR_AGENT_NAME;
  const text = typeof raw === 'string' ? truncate(plainText(raw).trim(), GATEWAY_LIMITS.maxClientNameLength) : '';
  if (looksLikeEditorAgent(text)) return `${text} (self-named)`;
  return text || 'An unnamed client';
};

/** Latin letters' look-alikes (Cyrillic, Greek) a name can use to read as "VS Code's agent" without being it. */
const LOOKALIKES: Record<string, string> = { а: 'a', с: 'c', е: 'e', о: 'o', р: 'p', ѕ: 's', ԁ: 'd', ɡ: 'g', ν: 'v', ο: 'o', α: 'a', ε: 'e', τ: 't', η: 'n', ı: 'i' };

/**
 * Whether a name reads as VS Code's agent to the eye: compared by its letters and digits alone (case, apostrophes,
 * spaces, invisible characters and look-alike letters set aside), so "VS Code’s agent" or "VS Code's\u200b agent" is
 * told apart like "VS Code's agent" itself. Linear: one pass over at most maxClientNameLength characters.
 */
const looksLikeEditorAgent = (name: string): boolean => {
  const letters = [...name.normalize('NFKC').toLowerCase()].map((c) => LOOKALIKES[c] ?? c).join('').replace(/[^a-z0-9]/g, '');
  return letters.includes('vscode') && letters.includes('agent');
};

export class GatewayClients {
  private readonly clients = new Map<string, GatewayClient>();
  // A listener set of its own, not the core's Emitter: this loads on demand, and a class with state must not be in
  // two bundles (scripts/check-bundles.mjs).
  private readonly listeners = new Set<() => void>();

  /** Fires when a client connects, names itself or goes. */
  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fire(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A failing listener (the status bar) must not stop the others, nor a client's request.
      }
    }
  }

  constructor(private readonly now: () => number = Date.now) {}

  /** The connected clients, oldest first (idle 2026-era clients dropped). */
  list(): GatewayClient[] {
    this.expire();
    return [...this.clients.values()];
  }

  get size(): number {
    return this.list().length;
  }

  /** Counts a client in; refused (with words) when the gateway already has its most clients. */
  admit(key: string, rawName: unknown, era: GatewayClient['era'], editor = false): { ok: true; client: GatewayClient } | { ok: false; message: string } {
    this.expire();
    const known = this.clients.get(key);
    if (known) {
      known.lastSeen = this.now();
      return { ok: true, client: known };
    }
    if (this.clients.size >= GATEWAY_LIMITS.maxClients) {
      return { ok: false, message: `Refused: the MCP Host gateway already has ${GATEWAY_LIMITS.maxClients} clients connected, its most. Disconnect one, then try again.` };
    }
    const client: GatewayClient = { key, name: clientLabel(rawName, editor), era, inFlight: 0, lastSeen: this.now() };
    this.clients.set(key, client);
    this.fire();
    return { ok: true, client };
  }

  /** The client said its name (2025 era: in its initialize, answered after its session began). */
  named(key: string, rawName: unknown, editor = false): GatewayClient | undefined {
    const client = this.clients.get(key);
    if (!client) return undefined;
    client.name = clientLabel(rawName, editor);
    this.fire();
    return client;
  }

  /** A request of the client begins: its end function, or words when the client already has its most in flight. */
  begin(client: GatewayClient): { ok: true; end: () => void } | { ok: false; message: string } {
    if (client.inFlight >= GATEWAY_LIMITS.maxConcurrentPerClient) {
      return { ok: false, message: `Refused: ${client.name} already has ${GATEWAY_LIMITS.maxConcurrentPerClient} requests running through the MCP Host gateway, its most at once. Wait for one to finish.` };
    }
    client.inFlight++;
    client.lastSeen = this.now();
    let ended = false;
    return {
      ok: true,
      end: () => {
        if (ended) return;
        ended = true;
        client.inFlight--;
        client.lastSeen = this.now();
      },
    };
  }

  remove(key: string): void {
    if (this.clients.delete(key)) this.fire();
  }

  clear(): void {
    if (!this.clients.size) return;
    this.clients.clear();
    this.fire();
  }

  dispose(): void {
    this.listeners.clear();
  }

  private expire(): void {
    const before = this.clients.size;
    for (const [key, c] of this.clients) if (c.era === 'modern' && c.inFlight === 0 && this.now() - c.lastSeen > MODERN_CLIENT_IDLE_MS) this.clients.delete(key);
    if (this.clients.size !== before) this.fire();
  }
}
