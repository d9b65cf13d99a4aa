// Per-server sign-in state, as the Servers view shows it: signed in as …, needs sign-in, or failed.
import { Emitter, type Disposable } from '../common/events';

export type AuthStatus =
  | { kind: 'signedIn'; account?: string; authorizationServer: string }
  | { kind: 'needsSignIn'; authorizationServer?: string }
  | { kind: 'failed'; message: string };

export class AuthStatusStore implements Disposable {
  private readonly statuses = new Map<string, AuthStatus>();
  private readonly _onDidChange = new Emitter<string>();
  /** Fires with the id of the server whose status changed. */
  readonly onDidChange = this._onDidChange.event;

  get(serverId: string): AuthStatus | undefined {
    return this.statuses.get(serverId);
  }

  set(serverId: string, status: AuthStatus | undefined): void {
    const previous = this.statuses.get(serverId);
    if (JSON.stringify(previous) === JSON.stringify(status)) return;
    if (status) this.statuses.set(serverId, status);
    else this.statuses.delete(serverId);
    this._onDidChange.fire(serverId);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
