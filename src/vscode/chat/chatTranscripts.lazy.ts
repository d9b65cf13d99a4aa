// In extension tests only: what the @mcp participant wrote into each response, since tests cannot read the Chat
// view. Every part is forwarded to the real stream unchanged. (In the host bundle: only test runs make one.)
import vscode = require('vscode');
import type { ChatTranscript, ChatTranscripts } from './chatTranscripts';

const markdownText = (v: string | vscode.MarkdownString): string => (typeof v === 'string' ? v : v.value);

export class ChatTranscriptRecorder implements ChatTranscripts {
  readonly all: ChatTranscript[] = [];

  /** Starts a transcript for a request and returns a stream that records into it. */
  record(request: vscode.ChatRequest, stream: vscode.ChatResponseStream): { stream: vscode.ChatResponseStream; transcript: ChatTranscript } {
    const transcript: ChatTranscript = { command: request.command, prompt: request.prompt, parts: [], done: false };
    this.all.push(transcript);
    const log = (part: string) => transcript.parts.push(part);
    // The stream VS Code passes is frozen: wrap it rather than proxy it.
    const recording: vscode.ChatResponseStream = {
      markdown(v) {
        log(`markdown: ${markdownText(v)}`);
        stream.markdown(v);
      },
      progress(v) {
        log(`progress: ${v}`);
        stream.progress(v);
      },
      button(c) {
        log(`button: ${c.title} -> ${c.command} ${JSON.stringify(c.arguments ?? [])}`);
        stream.button(c);
      },
      anchor(v, title) {
        log(`anchor: ${v instanceof vscode.Uri ? v.toString() : v.uri.toString()}${title ? ` ${title}` : ''}`);
        stream.anchor(v, title);
      },
      reference(v, icon) {
        log(`reference: ${v instanceof vscode.Uri ? v.toString() : v.uri.toString()}`);
        stream.reference(v, icon);
      },
      filetree(v, base) {
        stream.filetree(v, base);
      },
      push(part) {
        stream.push(part);
      },
    };
    return { stream: recording, transcript };
  }
}
