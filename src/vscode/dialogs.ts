// The one place modal confirmations and free-text input go through. VS Code refuses modal dialogs inside extension
// tests, so integration tests swap in their own answers through the extension's test API.
import * as vscode from 'vscode';

export interface TrustQuestion {
  serverName: string;
  /** Where it is defined, e.g. "my-folder/.vscode/mcp.json". */
  source: string;
  /** What would run: the command line, or the URL. */
  detail: string;
}

export interface TextQuestion {
  title: string;
  prompt: string;
  password: boolean;
  value?: string;
}

export interface HostDialogs {
  /** true = Trust, false = Do Not Trust, undefined = dismissed. */
  confirmTrust(q: TrustQuestion): Promise<boolean | undefined>;
  inputText(q: TextQuestion): Promise<string | undefined>;
}

export const nativeDialogs: HostDialogs = {
  async confirmTrust(q) {
    const trust = 'Trust';
    const doNotTrust = 'Do Not Trust';
    const answer = await vscode.window.showWarningMessage(
      `Trust and run the MCP server "${q.serverName}"?`,
      {
        modal: true,
        detail: `Defined in ${q.source}. It will run with your permissions:\n\n${q.detail}\n\nOnly trust servers from sources you trust.`,
      },
      trust,
      doNotTrust,
    );
    return answer === trust ? true : answer === doNotTrust ? false : undefined;
  },
  async inputText(q) {
    return vscode.window.showInputBox({ title: q.title, prompt: q.prompt, password: q.password, value: q.value, ignoreFocusOut: true });
  },
};

/** Forwards to the native dialogs unless a test installed its own answers. */
export class DialogRouter implements HostDialogs {
  private current: HostDialogs = nativeDialogs;

  use(dialogs: HostDialogs): vscode.Disposable {
    this.current = dialogs;
    return new vscode.Disposable(() => {
      if (this.current === dialogs) this.current = nativeDialogs;
    });
  }

  confirmTrust(q: TrustQuestion) {
    return this.current.confirmTrust(q);
  }

  inputText(q: TextQuestion) {
    return this.current.inputText(q);
  }
}
