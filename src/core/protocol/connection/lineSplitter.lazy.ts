// Splits a byte stream into lines in linear time: each chunk is scanned once for newlines, bytes of an unfinished
// line are kept as the chunks they came in (never re-joined or re-scanned until the line ends), and a line longer
// than the cap is never held whole. Lines are cut at bytes, so UTF-8 split across chunks decodes correctly.

export interface LineSplitterOptions {
  /** The longest line kept, in bytes (without its line ending). */
  maxLineBytes: number;
  /** A complete line (its ending removed, a trailing `\r` too). */
  onLine(line: Buffer): void;
  /** A line grew past the cap: `head` is its first `maxLineBytes` bytes; the rest of it is dropped as it comes. */
  onOverflow(head: Buffer): void;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineSplitter {
  private parts: Buffer[] = [];
  private length = 0;
  /** The current line went over the cap: its remaining bytes are skipped until its newline. */
  private skipping = false;

  constructor(private readonly options: LineSplitterOptions) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  }

  /** The stream ended: an unfinished last line is still a line. */
  end(): void {
    if (this.length || this.skipping) this.endLine();
  }

  private take(bytes: Buffer) {
    if (this.skipping || !bytes.length) return;
    const room = this.options.maxLineBytes - this.length;
    if (bytes.length <= room) {
      this.parts.push(bytes);
      this.length += bytes.length;
      return;
    }
    this.parts.push(bytes.subarray(0, room));
    const head = Buffer.concat(this.parts);
    this.parts = [];
    this.length = 0;
    this.skipping = true;
    this.options.onOverflow(head);
  }

  private endLine() {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    let line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.length);
    if (line.length && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    this.parts = [];
    this.length = 0;
    this.options.onLine(line);
  }
}
