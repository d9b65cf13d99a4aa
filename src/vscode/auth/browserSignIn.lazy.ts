// The user's side of signing in, in VS Code: the consent dialog, the browser (vscode.env.openExternal, through the
// dialogs so tests can play the browser), and the way back: a loopback listener made reachable from wherever the
// browser runs by vscode.env.asExternalUri (the same URL on a desktop, a forwarded port in remote and web windows).
import vscode = require('vscode');
import { SignInError } from '../../core/protocol/auth/authErrors.lazy';
import { LoopbackRedirectReceiver } from '../../core/protocol/auth/loopbackRedirect.lazy';
import type { AuthInteraction, SignInRequest } from '../../core/auth/authPorts';
import type { HostDialogs } from '../dialogs/dialogRouter';

/** The listener's port is kept, so the redirect URL (part of each client registration) stays the same next time. */
const PORT_KEY = 'mcpHost.oauthRedirectPort';

export class BrowserSignIn implements AuthInteraction, vscode.Disposable {
  private listener: LoopbackRedirectReceiver | undefined;
  private external: Promise<string> | undefined;

  constructor(
    private readonly dialogs: Pick<HostDialogs, 'confirmSignIn' | 'openSignInPage'>,
    private readonly state: vscode.Memento,
  ) {}

  /** The loopback listener, made when the OAuth flow first asks for it. */
  private get receiver(): LoopbackRedirectReceiver {
    return (this.listener ??= new LoopbackRedirectReceiver());
  }

  redirectUrl(): Promise<string> {
    this.external ??= (async () => {
      const port = await this.receiver.listen(this.state.get<number>(PORT_KEY));
      await this.state.update(PORT_KEY, port);
      const external = await vscode.env.asExternalUri(vscode.Uri.parse(`http://127.0.0.1:${port}/callback`));
      return external.toString(true);
    })().catch((e: unknown) => {
      // Not kept: a listener or port forwarding that failed once may work at the next sign-in.
      this.external = undefined;
      throw e;
    });
    return this.external;
  }

  confirmSignIn(request: SignInRequest): Promise<boolean | undefined> {
    return this.dialogs.confirmSignIn(request);
  }

  async authorize(authorizationUrl: URL, signal: AbortSignal): Promise<URLSearchParams> {
    const state = authorizationUrl.searchParams.get('state');
    if (!state) throw new SignInError('The sign-in request carries no state: refused.');
    const redirect = this.receiver.waitFor(state, signal);
    // Abandoned below when the browser does not open: that rejection is expected.
    redirect.catch(() => undefined);
    const opened = await this.dialogs.openSignInPage!(authorizationUrl.href);
    if (!opened) throw new SignInError(`The browser could not be opened for ${authorizationUrl.host}.`);
    return redirect;
  }

  dispose(): void {
    this.listener?.dispose();
  }
}
