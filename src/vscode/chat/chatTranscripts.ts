// In extension tests only: what the @mcp participant wrote into each response, since tests cannot read the Chat
// view (recorded by ./chatTranscripts.lazy.ts).
import type vscode = require('vscode');

export interface ChatTranscript {
  command?: string;
  prompt: string;
  /** `markdown: …`, `progress: …`, `button: <title> -> <command> <arguments as JSON>`, `anchor: <uri>`, in the order written. */
  parts: string[];
  done: boolean;
  errorMessage?: string;
}

export interface ChatTranscripts {
  readonly all: ChatTranscript[];
  /** Starts a transcript for a request and returns a stream that records into it. */
  record(request: vscode.ChatRequest, stream: vscode.ChatResponseStream): { stream: vscode.ChatResponseStream; transcript: ChatTranscript };
}
