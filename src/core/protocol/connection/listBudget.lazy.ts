// What one server can make the host keep of one list (tools, prompts, resources, resource templates, skills): at most
// MAX_LIST_ITEMS items and MAX_LIST_BYTES of their JSON per walk from the first page. The items that fit are kept, the
// rest of the page is dropped and no further page is asked for: a server that floods pages cannot fill the extension
// host's memory (which every extension shares).

/** The most items kept of one list. */
export const MAX_LIST_ITEMS = 10_000;
/** The most bytes (of the items' JSON) kept of one list. */
export const MAX_LIST_BYTES = 16 * 1024 * 1024;

export interface ListLimits {
  items: number;
  bytes: number;
}

export const DEFAULT_LIST_LIMITS: ListLimits = { items: MAX_LIST_ITEMS, bytes: MAX_LIST_BYTES };

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

export class ListBudget {
  private items = 0;
  private bytes = 0;
  /** Why the list stopped short, in words; undefined while everything fit. */
  cut: string | undefined;

  constructor(private readonly limits: ListLimits = DEFAULT_LIST_LIMITS) {}

  /** Whether nothing more fits (the walk ends). */
  get spent(): boolean {
    return this.cut !== undefined;
  }

  /** Keeps the leading items of `page` that fit, removing the rest from the array; false once the budget is spent. */
  admit(page: unknown[]): boolean {
    if (this.spent) {
      page.length = 0;
      return false;
    }
    let kept = 0;
    for (const item of page) {
      const size = Buffer.byteLength(JSON.stringify(item) ?? '', 'utf8');
      if (this.items + 1 > this.limits.items) {
        this.cut = `only the first ${this.items.toLocaleString('en-US')} were kept: the server offers more than the ${this.limits.items.toLocaleString('en-US')} items a list may hold`;
        break;
      }
      if (this.bytes + size > this.limits.bytes) {
        this.cut = `only the first ${this.items.toLocaleString('en-US')} were kept: the server's list is bigger than the ${megabytes(this.limits.bytes)} a list may hold`;
        break;
      }
      this.items++;
      this.bytes += size;
      kept++;
    }
    if (kept < page.length) page.length = kept;
    return !this.spent;
  }
}

/** Why the client's last walk of `method` stopped short (LevelledClient), or undefined. */
export const listCutOf = (client: object, method: string): string | undefined => (client as { listCuts?: Map<string, string> }).listCuts?.get(method);
