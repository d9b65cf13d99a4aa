// The one place modal confirmations and free-text input go through. VS Code refuses modal dialogs inside extension
// tests, so integration tests swap in their own answers through the extension's test API. Questions carry text as
// servers and workspaces wrote it; the native dialogs make it plain here (serverText), where it reaches the screen.
import * as vscode from 'vscode';
import { foldForDialog, SHOW_ALL } from '../core/presentation/foldedText';
import type { FormField } from '../core/protocol/features/formModel';
import type { SamplingQuestion, SamplingResponseQuestion, SamplingReviewAnswer } from '../core/protocol/features/sampling/samplingFeature';
import type { ToolConsentQuestion } from '../core/features/tools/toolConsent';
import type { ConsentAnswer, StandingConsentAnswer, TextQuestion } from '../core/features/userQuestions';
import { labelText, plainText } from '../core/presentation/serverText';

export interface TrustQuestion {
  serverName: string;
  /** Where it is defined, e.g. "my-folder/.vscode/mcp.json". */
  source: string;
  /** What would run: the command line, or the URL. */
  detail: string;
}

/** Several new servers of one folder, asked about together. */
export interface TrustManyQuestion {
  /** The folder's name. */
  folder: string;
  /** Where they are defined, e.g. "my-folder/.vscode/mcp.json". */
  source: string;
  servers: TrustQuestion[];
}

/** Trust and run every server, choose which (a pick follows), or run none. */
export type TrustManyAnswer = 'all' | 'choose' | 'none';

export interface UrlQuestion {
  serverName: string;
  url: string;
  domain: string;
  message: string;
}

/** A view (MCP Apps) wants a message put into the chat input. */
export interface ViewMessageQuestion {
  serverName: string;
  /** The tool whose view asks. */
  toolName: string;
  text: string;
}

export interface FormFieldPresetQuestion {
  serverName: string;
  field: FormField;
}

export interface SignInQuestion {
  serverName: string;
  /** Host of the authorization server the browser would open. */
  authorizationServer: string;
}

/**
 * A confined server's sandbox. `denial`: it refused something (`denied`: "writing /x", "connecting to api.example.com");
 * `rule` is what would allow it (none for reading a hidden file). `unconfined`: this machine cannot confine it (`reason`).
 */
export type SandboxQuestion =
  | { kind: 'denial'; serverName: string; denied: string; rule: string | undefined; configPath: string }
  | { kind: 'unconfined'; serverName: string; reason: string };

export interface HostDialogs {
  /** true = Trust, false = Do Not Trust, undefined = dismissed. */
  confirmTrust(q: TrustQuestion): Promise<boolean | undefined>;
  /** One question for several new servers of a folder; undefined = dismissed. */
  confirmTrustMany(q: TrustManyQuestion): Promise<TrustManyAnswer | undefined>;
  inputText(q: TextQuestion): Promise<string | undefined>;
  confirmToolCall(q: ToolConsentQuestion): Promise<ConsentAnswer | undefined>;
  confirmSampling(q: SamplingQuestion): Promise<StandingConsentAnswer | undefined>;
  reviewSamplingResponse(q: SamplingResponseQuestion): Promise<SamplingReviewAnswer | undefined>;
  /** Open a URL a server asked for (URL-mode elicitation)? */
  confirmOpenUrl(q: UrlQuestion): Promise<boolean | undefined>;
  /** Open the browser to sign in to a server? */
  confirmSignIn(q: SignInQuestion): Promise<boolean | undefined>;
  /** Put the message a view wants to send into the chat input? The user still sends it. */
  confirmViewMessage(q: ViewMessageQuestion): Promise<boolean | undefined>;
  /** A sandbox denial, in a notification: true = Allow and Restart (the rule written into mcp.json). Or: true = Run Unconfined. */
  confirmSandbox(q: SandboxQuestion): Promise<boolean | undefined>;
  /**
   * A text a form field starts with instead of its default, asked as its step is first shown. Only tests answer
   * this: they cannot type into a quick input, so they preset the text that the real input box shows and accepts.
   */
  formFieldPreset?(q: FormFieldPresetQuestion): string | undefined;
  /** Opens an authorization server's sign-in page in the browser; false when it could not. Tests play the browser here. */
  openSignInPage?(url: string): Promise<boolean>;
}

/**
 * A modal question whose long text folds behind "Show All…": every line then opens in an editor, and the question is
 * asked again as a notification that stays while the user reads (a modal would cover the editor).
 */
async function askFolded(message: string, detail: string, buttons: string[]): Promise<string | undefined> {
  const folded = foldForDialog(detail);
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail: folded.shown }, ...buttons, ...(folded.hiddenLines ? [SHOW_ALL] : []));
  if (answer !== SHOW_ALL) return answer;
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: `${message}\n\n${detail}\n`, language: 'plaintext' }), { preview: true });
  return vscode.window.showWarningMessage(`${message} (The whole question is in the editor.)`, ...buttons);
}

/** The questions of running sessions: asked by the session layer (src/vscode/session), which loads with the first server. */
export type SessionDialogs = Pick<HostDialogs, 'confirmToolCall' | 'confirmSampling' | 'reviewSamplingResponse' | 'confirmOpenUrl' | 'confirmSignIn' | 'confirmViewMessage' | 'confirmSandbox'>;

const nativeDialogs = (session: () => SessionDialogs): HostDialogs => ({
  async confirmTrust(q) {
    const trust = 'Trust';
    const doNotTrust = 'Do Not Trust';
    const full = `Defined in ${q.source}. It will run with your permissions:\n\n${q.detail}\n\nOnly trust servers from sources you trust.`;
    const answer = await askFolded(`Trust and run the MCP server "${plainText(q.serverName)}"?`, full, [trust, doNotTrust]);
    return answer === trust ? true : answer === doNotTrust ? false : undefined;
  },
  async confirmTrustMany(q) {
    const all = `Trust and Run All ${q.servers.length}`;
    const choose = 'Choose Which to Run…';
    const none = 'Run None';
    const list = q.servers.map((s) => `• ${plainText(s.serverName)}: ${s.detail}`).join('\n\n');
    const full = `Defined in ${q.source}. Each runs with your permissions:\n\n${list}\n\nOnly trust servers from sources you trust.`;
    const answer = await askFolded(`Trust and run the ${q.servers.length} new MCP servers of "${plainText(q.folder)}"?`, full, [all, choose, none]);
    return answer === all ? 'all' : answer === choose ? 'choose' : answer === none ? 'none' : undefined;
  },
  async inputText(q) {
    // The prompt renders `$(icon)` and `[label](target)` links, the title is plain text.
    return vscode.window.showInputBox({ title: plainText(q.title), prompt: labelText(q.prompt), password: q.password, value: q.value, ignoreFocusOut: true });
  },
  confirmToolCall: (q) => session().confirmToolCall(q),
  confirmSampling: (q) => session().confirmSampling(q),
  reviewSamplingResponse: (q) => session().reviewSamplingResponse(q),
  confirmOpenUrl: (q) => session().confirmOpenUrl(q),
  confirmSignIn: (q) => session().confirmSignIn(q),
  confirmViewMessage: (q) => session().confirmViewMessage(q),
  confirmSandbox: (q) => session().confirmSandbox(q),
  async openSignInPage(url) {
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  },
});

/** Forwards to the native dialogs unless a test installed its own answers. */
export class DialogRouter implements HostDialogs {
  private readonly native: HostDialogs;
  private current: HostDialogs;

  constructor(sessionDialogs: () => SessionDialogs) {
    this.native = this.current = nativeDialogs(sessionDialogs);
  }

  /** Installs test answers; questions they do not answer fall back to the native dialogs. */
  use(dialogs: Partial<HostDialogs>): vscode.Disposable {
    const previous = this.current;
    const installed: HostDialogs = { ...previous, ...dialogs };
    this.current = installed;
    return new vscode.Disposable(() => {
      if (this.current === installed) this.current = previous;
    });
  }

  confirmTrust(q: TrustQuestion) {
    return this.current.confirmTrust(q);
  }

  confirmTrustMany(q: TrustManyQuestion) {
    return this.current.confirmTrustMany(q);
  }

  inputText(q: TextQuestion) {
    return this.current.inputText(q);
  }

  confirmToolCall(q: ToolConsentQuestion) {
    return this.current.confirmToolCall(q);
  }

  confirmSampling(q: SamplingQuestion) {
    return this.current.confirmSampling(q);
  }

  reviewSamplingResponse(q: SamplingResponseQuestion) {
    return this.current.reviewSamplingResponse(q);
  }

  confirmOpenUrl(q: UrlQuestion) {
    return this.current.confirmOpenUrl(q);
  }

  confirmSignIn(q: SignInQuestion) {
    return this.current.confirmSignIn(q);
  }

  confirmViewMessage(q: ViewMessageQuestion) {
    return this.current.confirmViewMessage(q);
  }

  confirmSandbox(q: SandboxQuestion) {
    return this.current.confirmSandbox(q);
  }

  formFieldPreset(q: FormFieldPresetQuestion) {
    return this.current.formFieldPreset?.(q);
  }

  openSignInPage(url: string) {
    return (this.current.openSignInPage ?? this.native.openSignInPage!)(url);
  }
}
