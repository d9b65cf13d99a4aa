// A list a server sends in pages, loaded a page at a time on demand: the first page when the server starts, the next
// on "load more", and a reload fetches as many pages as were loaded, so a view keeps its place. A reload started
// while a page was on its way wins: that page belongs to the old list and is dropped. What is kept from the first page
// on is capped (ListBudget): past the cap the rest of a page is dropped and no further page is asked for.
import { ListBudget, type ListLimits } from './listBudget.lazy';

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export class PagedList<T> {
  items: T[] = [];
  private nextCursor: string | undefined;
  private generation = 0;
  private pagesLoaded = 0;
  private loadingMore: Promise<boolean> | undefined;
  private budget: ListBudget;

  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
    private readonly limits?: ListLimits,
  ) {
    this.budget = new ListBudget(limits);
  }

  /** Why the list stopped short of what the server offers (the cap), or undefined. */
  get cut(): string | undefined {
    return this.budget.cut;
  }

  get hasMore(): boolean {
    return this.nextCursor !== undefined;
  }

  /** Loads from the start until at least `minPages` pages (or all there are) are in. */
  async load(minPages = 1): Promise<T[]> {
    const generation = ++this.generation;
    // Until the reload is in, there is no valid cursor: "load more" waits for it.
    this.nextCursor = undefined;
    const budget = new ListBudget(this.limits);
    let page = await this.fetchPage(undefined);
    budget.admit(page.items);
    const items = [...page.items];
    let pages = 1;
    for (; pages < minPages && page.nextCursor !== undefined && !budget.spent; pages++) {
      page = await this.fetchPage(page.nextCursor);
      budget.admit(page.items);
      items.push(...page.items);
    }
    if (generation === this.generation) {
      this.nextCursor = budget.spent ? undefined : page.nextCursor;
      this.pagesLoaded = pages;
      this.items = items;
      this.budget = budget;
    }
    return items;
  }

  /** Reloads as many pages as were loaded. */
  reload(): Promise<T[]> {
    return this.load(Math.max(1, this.pagesLoaded));
  }

  /** Appends the next page, if there is one; true when it did. Concurrent calls share one request. */
  loadMore(): Promise<boolean> {
    this.loadingMore ??= this.fetchMore().finally(() => (this.loadingMore = undefined));
    return this.loadingMore;
  }

  private async fetchMore(): Promise<boolean> {
    const cursor = this.nextCursor;
    if (cursor === undefined) return false;
    const generation = this.generation;
    const page = await this.fetchPage(cursor);
    if (generation !== this.generation) return false;
    this.budget.admit(page.items);
    // A server whose cursor does not advance would make "load more" repeat the same page forever.
    this.nextCursor = page.nextCursor === cursor || this.budget.spent ? undefined : page.nextCursor;
    this.pagesLoaded++;
    this.items = [...this.items, ...page.items];
    return true;
  }
}
