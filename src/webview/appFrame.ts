// The script of the webview that holds an MCP App view. It only relays: the view runs in a nested frame sandboxed to
// scripts alone (an opaque origin: it cannot reach this document, the webview's VS Code API, or anything above), and
// JSON-RPC goes between that frame, and only that frame, and the extension, which checks every message and answers
// every request. (What ext-apps' PostMessageTransport does, without the SDK and zod it would bring into this script:
// the extension checks the messages against the SDK's schema instead.) It also reports the theme it sees, so the view gets VS Code's colours, and applies the
// heights the extension allows.
import { themeKind, themeStyles } from '../core/features/apps/appStyles';
import type { FromWebview, ToWebview } from '../core/features/apps/viewMessages';

declare function acquireVsCodeApi(): { postMessage(message: FromWebview): void };

const vscode = acquireVsCodeApi();
const frame = document.getElementById('app') as HTMLIFrameElement;
const title = document.getElementById('title') as HTMLElement;
const detail = document.getElementById('detail') as HTMLElement;
const status = document.getElementById('status') as HTMLElement;

const theme = () => {
  const root = getComputedStyle(document.documentElement);
  return {
    theme: themeKind([...document.body.classList]),
    styles: themeStyles((name) => root.getPropertyValue(name)),
    width: document.body.clientWidth,
  };
};

// The view's window, taken once: messages from any other source (frames the view opens, other documents) are not its.
const view = frame.contentWindow!;
const fromView = (event: MessageEvent) => {
  if (event.source !== view) return;
  // Anything that does not even claim to be JSON-RPC 2.0 is not for the extension; the rest it checks in full.
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || (data as { jsonrpc?: unknown }).jsonrpc !== '2.0') return;
  vscode.postMessage({ type: 'rpc', message: data });
};
window.addEventListener('message', fromView);

function close(heading: string, text: string) {
  window.removeEventListener('message', fromView);
  frame.remove();
  title.textContent = heading;
  detail.textContent = text;
  status.className = 'closed';
}

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  // VS Code delivers the extension's messages from the window that hosts this webview, of this document's origin. The
  // view's frame has an opaque origin ("null") and frames it may open have their own: neither is the extension.
  if (event.origin !== window.location.origin || event.source === frame.contentWindow) return;
  const m = event.data;
  switch (m?.type) {
    case 'load':
      title.textContent = m.title;
      detail.textContent = m.detail;
      if (m.allow) frame.setAttribute('allow', m.allow);
      frame.srcdoc = m.html;
      return;
    case 'rpc':
      view.postMessage(m.message, '*');
      return;
    case 'height':
      frame.style.height = `${m.height}px`;
      return;
    case 'closed':
      close(m.title, m.detail);
      return;
  }
});

// VS Code changes the theme's variables on <html> and its kind on <body>.
let reported = JSON.stringify(theme());
const report = () => {
  const now = theme();
  const text = JSON.stringify(now);
  if (text === reported) return;
  reported = text;
  vscode.postMessage({ type: 'context', ...now });
};
new MutationObserver(report).observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
new MutationObserver(report).observe(document.body, { attributes: true, attributeFilter: ['class'] });
window.addEventListener('resize', report);

vscode.postMessage({ type: 'ready', ...theme() });
