// The one place modal confirmations and free-text input go through. VS Code refuses modal dialogs inside extension
// tests, so integration tests swap in their own answers through the extension's test API. Questions carry text as
// servers and workspaces wrote it; the native dialogs make it plain here (serverText), where it reaches the screen.
import vscode = require('vscode');
import type { FormField } from '../../core/features/elicitation/form';
import type { SamplingAnswer, SamplingQuestion, SamplingResponseQuestion, SamplingReviewAnswer } from '../../core/features/sampling/samplingQuestions';
import type { ToolConsentQuestion } from '../../core/features/tools/toolConsent';
import type { ConsentAnswer, TextQuestion } from '../../core/features/userQuestions';
import { labelText, plainText } from '../../core/presentation/serverText';
import type { TrustAnswer } from '../../core/host/hostPorts';
import type { ResetTrustQuestion } from '../../core/presentation/permissionRows';
import type { TrustManyAnswer, TrustManyQuestion, TrustQuestion } from '../../core/presentation/trustQuestionText';

export type { TrustManyAnswer, TrustManyQuestion, TrustQuestion } from '../../core/presentation/trustQuestionText';

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

/** A workspace file's server wants a VS Code command run for a value (`${command:…}`, a `command` input). */
export interface CommandValueQuestion {
  serverName: string;
  /** The file it is defined in. */
  source: string;
  command: string;
  /** Its arguments, as written (JSON), if any. */
  args?: string;
}

export interface SignInQuestion {
  serverName: string;
  /** Host of the authorization server the browser would open. */
  authorizationServer: string;
}

/**
 * A confined server's sandbox. `denial`: it refused something (`denied`: "writing /x", "connecting to api.example.com:443");
 * `rule` is what would allow exactly that, or `refused` says why none is offered. `unconfined`: this machine cannot
 * confine it (`reason`).
 */
export type SandboxQuestion =
  | { kind: 'denial'; serverName: string; denied: string; rule: string | undefined; refused?: string; configPath: string }
  | { kind: 'unconfined'; serverName: string; reason: string };

export interface HostDialogs {
  /** 'confined' = Run Confined (offered first when q.confined allows), true = Trust, false = Do Not Trust, undefined = dismissed. */
  confirmTrust(q: TrustQuestion): Promise<TrustAnswer | undefined>;
  /** One question for several new servers of a folder; undefined = dismissed. */
  confirmTrustMany(q: TrustManyQuestion): Promise<TrustManyAnswer | undefined>;
  inputText(q: TextQuestion): Promise<string | undefined>;
  confirmToolCall(q: ToolConsentQuestion): Promise<ConsentAnswer | undefined>;
  /** The one question of a sampling request (see samplingQuestionText). */
  confirmSampling(q: SamplingQuestion): Promise<SamplingAnswer | undefined>;
  reviewSamplingResponse(q: SamplingResponseQuestion): Promise<SamplingReviewAnswer | undefined>;
  /** Open a URL a server asked for (URL-mode elicitation)? */
  confirmOpenUrl(q: UrlQuestion): Promise<boolean | undefined>;
  /** Open the browser to sign in to a server? */
  confirmSignIn(q: SignInQuestion): Promise<boolean | undefined>;
  /** Run a VS Code command that a workspace file names, for a server's value? */
  confirmCommandValue(q: CommandValueQuestion): Promise<boolean | undefined>;
  /** Put the message a view wants to send into the chat input? The user still sends it. */
  confirmViewMessage(q: ViewMessageQuestion): Promise<boolean | undefined>;
  /** Reset Server Trust, before it forgets anything: true = forget, false/undefined = keep. */
  confirmResetTrust(q: ResetTrustQuestion): Promise<boolean | undefined>;
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

/** The modal questions: of running servers, and the trust question (asked once the plan is built). Their native dialogs load on demand (./modalDialogs.lazy.ts). */
export type ModalDialogs = Pick<HostDialogs, 'confirmTrust' | 'confirmTrustMany' | 'confirmToolCall' | 'confirmSampling' | 'reviewSamplingResponse' | 'confirmOpenUrl' | 'confirmSignIn' | 'confirmCommandValue' | 'confirmViewMessage' | 'confirmSandbox' | 'confirmResetTrust'>;

const nativeDialogs = (modal: ModalDialogs): HostDialogs => ({
  confirmTrust: (q) => modal.confirmTrust(q),
  confirmTrustMany: (q) => modal.confirmTrustMany(q),
  async inputText(q) {
    // The prompt renders `$(icon)` and `[label](target)` links, the title is plain text.
    return vscode.window.showInputBox({ title: plainText(q.title), prompt: labelText(q.prompt), password: q.password, value: q.value, ignoreFocusOut: true });
  },
  confirmToolCall: (q) => modal.confirmToolCall(q),
  confirmSampling: (q) => modal.confirmSampling(q),
  reviewSamplingResponse: (q) => modal.reviewSamplingResponse(q),
  confirmOpenUrl: (q) => modal.confirmOpenUrl(q),
  confirmSignIn: (q) => modal.confirmSignIn(q),
  confirmCommandValue: (q) => modal.confirmCommandValue(q),
  confirmViewMessage: (q) => modal.confirmViewMessage(q),
  confirmSandbox: (q) => modal.confirmSandbox(q),
  confirmResetTrust: (q) => modal.confirmResetTrust(q),
  async openSignInPage(url) {
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  },
});

/** Forwards to the native dialogs unless a test installed its own answers. */
export class DialogRouter implements HostDialogs {
  private readonly native: HostDialogs;
  private current: HostDialogs;

  constructor(modalDialogs: ModalDialogs) {
    this.native = this.current = nativeDialogs(modalDialogs);
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

  confirmCommandValue(q: CommandValueQuestion) {
    return this.current.confirmCommandValue(q);
  }

  confirmViewMessage(q: ViewMessageQuestion) {
    return this.current.confirmViewMessage(q);
  }

  confirmSandbox(q: SandboxQuestion) {
    return this.current.confirmSandbox(q);
  }

  confirmResetTrust(q: ResetTrustQuestion) {
    return this.current.confirmResetTrust(q);
  }

  formFieldPreset(q: FormFieldPresetQuestion) {
    return this.current.formFieldPreset?.(q);
  }

  openSignInPage(url: string) {
    return (this.current.openSignInPage ?? this.native.openSignInPage!)(url);
  }
}
