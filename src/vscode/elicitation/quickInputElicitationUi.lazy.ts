// Elicitation in VS Code: forms as the multi-step quick input, URL requests as a modal naming the domain, and the
// browser only after the user agreed.
import vscode = require('vscode');
import type { ElicitationUi, FormRequest, UrlRequest } from '../../core/features/elicitation/elicitationFeature.lazy';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { runQuickInputForm } from './quickInputForm.lazy';

export class QuickInputElicitationUi implements ElicitationUi {
  constructor(private readonly dialogs: HostDialogs) {}

  askForm(request: FormRequest) {
    return runQuickInputForm(request.form, {
      // The title is the server's question alone: which tool call asks is said where there is room (URL requests).
      title: request.message,
      serverName: request.serverName,
      dialogs: this.dialogs,
      review: true,
      signal: request.signal,
      offerDeclineAlways: true,
    });
  }

  confirmOpenUrl(request: UrlRequest) {
    return this.dialogs.confirmOpenUrl({
      serverName: request.serverName,
      url: request.url,
      domain: request.domain,
      message: request.chatContext ? `${request.message}\n\n${request.chatContext}` : request.message,
    });
  }

  openUrl(url: string) {
    return Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true)));
  }
}
