// What a person reads about a running tool call: its progress (the server's step text, capped and on one line) and
// why it ended early when it was cancelled, and by whom. Server text goes through plainText; callers that write
// Markdown escape the result as a line (markdownLine).
import { sessionEndWords, type SessionEnd } from '../host/sessionEnd';
import { plainText, truncate } from './serverText';

/** Who cancelled a call: the user (a Cancel button, chat's Stop), or the end of its server's session. */
export type CancelledBy = 'you' | SessionEnd;

/** A server's progress message is cut to this many characters: a notification shows one short line. */
export const MAX_PROGRESS_MESSAGE = 120;

export interface ProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

const isCount = (n: number): boolean => Number.isInteger(n) && n >= 0;

/**
 * The server's own words for the step it is at, then how far it is: "Fetching page 2 (2 of 5)". Counts up to 1000
 * read as "2 of 5"; other totals (bytes, milliseconds) as a percentage; without a total, the count so far.
 */
export function progressText(report: ProgressReport): string {
  const message = report.message === undefined ? '' : truncate(plainText(report.message).trim(), MAX_PROGRESS_MESSAGE);
  const { progress, total } = report;
  let share = '';
  if (Number.isFinite(progress)) {
    if (total !== undefined && Number.isFinite(total) && total > 0) {
      share = isCount(progress) && isCount(total) && total <= 1000 ? `${Math.min(progress, total)} of ${total}` : `${Math.min(100, Math.max(0, Math.round((progress / total) * 100)))}%`;
    } else if (isCount(progress)) {
      share = `${progress} so far`;
    }
  }
  if (message && share) return `${message} (${share})`;
  return message || share;
}

/** Why the call ended early, to follow "was cancelled: ". */
export function cancelledReason(by: CancelledBy, serverName: string): string {
  if (by === 'you') return 'you cancelled it';
  return `its server "${plainText(truncate(serverName, 100))}" ${sessionEndWords(by)} while the tool ran`;
}

/** One sentence: `The tool "sleep" (slow) was cancelled: you cancelled it.` */
export function cancelledToolCall(toolName: string, serverName: string, by: CancelledBy): string {
  return `The tool "${plainText(truncate(toolName, 100))}" was cancelled: ${cancelledReason(by, serverName)}.`;
}

/** Rejects a call that was cancelled: its message says by whom; `cancelledBy` lets a surface show it as such. */
export function toolCallCancelledError(toolName: string, serverName: string, by: CancelledBy): Error {
  return Object.assign(new Error(cancelledToolCall(toolName, serverName, by)), { cancelledBy: by });
}

/** Who cancelled the call `error` rejected it with, when it was cancelled (see toolCallCancelledError). */
export function cancelledByOf(error: unknown): CancelledBy | undefined {
  const by = (error as { cancelledBy?: unknown } | undefined)?.cancelledBy;
  return by === 'you' || by === 'stopped' || by === 'restarted' || by === 'exited' ? by : undefined;
}
