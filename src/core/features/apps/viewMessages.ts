// What the extension and the webview that holds a view's frame say to each other. The webview only relays: JSON-RPC
// between the view's frame and the extension, where every request is answered, plus the theme it sees.
import type { AppStyleVariable, AppTheme } from './appStyles';

/** Extension → webview. */
export type ToWebview =
  /** The view's HTML (its policy already in front) and the frame's Permissions Policy; labels are plain text. */
  | { type: 'load'; html: string; allow: string; title: string; detail: string }
  /** A JSON-RPC message for the view. */
  | { type: 'rpc'; message: unknown }
  | { type: 'height'; height: number }
  /** The view is gone (server stopped, view broken): the frame is removed and this text shown in its place. */
  | { type: 'closed'; title: string; detail: string };

/** Webview → extension. */
export type FromWebview =
  /** The webview is ready for the view; the theme as it sees it, and the room the view has. */
  | { type: 'ready'; theme: AppTheme; styles: Partial<Record<AppStyleVariable, string>>; width: number }
  | { type: 'context'; theme: AppTheme; styles: Partial<Record<AppStyleVariable, string>>; width: number }
  /** A JSON-RPC message from the view's frame (only from that frame, and only well-formed JSON-RPC). */
  | { type: 'rpc'; message: unknown };
