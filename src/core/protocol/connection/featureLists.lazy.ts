// What a running server offers: tools and prompts in full (every page), resources and resource templates a page at a
// time on demand (a server may offer 10,000). Lists follow `list_changed`; a reload of resources keeps as many pages
// as were loaded, so a view keeps its place.
import type { Client, ListChangedHandlers, RequestOptions } from '@modelcontextprotocol/client';
import { SkillsClient, SkillVerificationError, type SkillFile } from '@modelcontextprotocol/client/ext/skills';
import type { ServerLog } from '../../common/log';
import { emptyFeatures, type ResourceTemplate, type ServerFeatures, type Skill } from '../../host/serverInfo';
import { PagedList } from './pagedList.lazy';
import { ListBudget, listCutOf } from './listBudget.lazy';

type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates' | 'skills';
/** Each list's name in words, and the group of the view it shows in. */
const LISTS: Record<ListKind, { name: string; group: keyof NonNullable<ServerFeatures['incomplete']> }> = {
  tools: { name: 'tools', group: 'tools' },
  prompts: { name: 'prompts', group: 'prompts' },
  resources: { name: 'resources', group: 'resources' },
  resourceTemplates: { name: 'resource templates', group: 'resources' },
  skills: { name: 'skills', group: 'skills' },
};

export class FeatureLists {
  features: ServerFeatures = emptyFeatures();
  /** Where the next page of resources starts; undefined once the last page is loaded. */
  private resourcesNextCursor: string | undefined;
  /** Bumped by every reload of the resource list, so a page requested before it is not appended after it. */
  private resourcesGeneration = 0;
  private resourcePagesLoaded = 0;
  /** What the resource pages loaded so far have used of the cap on one list. */
  private resourceBudget = new ListBudget();
  /** Why each list cut short at the cap was, in words. */
  private readonly cuts: Partial<Record<ListKind, string>> = {};
  private loadingMoreResources: Promise<void> | undefined;
  /** The skills extension's client for the current SDK Client (one per connection attempt). */
  private skills: { client: Client; skills: SkillsClient } | undefined;
  /** Resource templates, a page at a time like resources. */
  private readonly templatePages = new PagedList<ResourceTemplate>(async (cursor) => {
    const client = this.client();
    if (!client) return { items: [] };
    const page = await client.request({ method: 'resources/templates/list', params: cursor === undefined ? {} : { cursor } }, this.requestOptions);
    return { items: page.resourceTemplates, nextCursor: page.nextCursor };
  });

  constructor(
    private readonly client: () => Client | undefined,
    private readonly log: ServerLog,
    /** Every list request's time limit and the session's lifetime: a stop ends a hung list at once. */
    private readonly requestOptions: { timeout: number; signal: AbortSignal },
    private readonly onDidChange: () => void,
  ) {}

  /** The SDK refreshes tools and prompts in full on `list_changed`; resources reload only the pages loaded. */
  listChangedHandlers(): ListChangedHandlers {
    const refreshed = (what: 'tools' | 'prompts') => (error: Error | null, items: unknown[] | null) => {
      if (error) {
        this.log.warn(`Refreshing ${what} after list_changed failed: ${error.message}`);
        return;
      }
      if (items) {
        const client = this.client();
        this.features = { ...this.features, [what]: items, incomplete: this.noteCut(what, client && listCutOf(client, `${what}/list`)) };
        this.onDidChange();
      }
    };
    return {
      tools: { onChanged: refreshed('tools') },
      prompts: { onChanged: refreshed('prompts') },
      resources: { autoRefresh: false, onChanged: () => void this.refreshResources() },
    };
  }

  get hasMoreResources(): boolean {
    return this.resourcesNextCursor !== undefined;
  }

  get hasMoreResourceTemplates(): boolean {
    return this.templatePages.hasMore;
  }

  /** Appends the next page of resource templates, if there is one. */
  async loadMoreResourceTemplates(): Promise<void> {
    if (!(await this.templatePages.loadMore())) return;
    this.noteCut('resourceTemplates', this.templatePages.cut);
    this.features = { ...this.features, resourceTemplates: this.templatePages.items };
    this.onDidChange();
  }

  /** Loads every list the server offers, following every page (the SDK walks `nextCursor`), except resources and templates: their first page. */
  async refresh(): Promise<void> {
    const client = this.client();
    if (!client) return;
    const caps = client.getServerCapabilities() ?? {};
    const opts = { ...this.requestOptions, cacheMode: 'refresh' as const };
    const load = async <T>(what: string, enabled: unknown, fn: () => Promise<T[]>): Promise<T[]> => {
      if (!enabled) return [];
      try {
        return await fn();
      } catch (e) {
        this.log.warn(`Listing ${what} failed: ${(e as Error).message}`);
        return [];
      }
    };
    const skillsClient = this.skillsOf(client);
    const [tools, prompts, resources, resourceTemplates, listing] = await Promise.all([
      load('tools', caps.tools, async () => (await client.listTools(undefined, opts)).tools),
      load('prompts', caps.prompts, async () => (await client.listPrompts(undefined, opts)).prompts),
      load('resources', caps.resources, () => this.loadResourcePages(client, 1)),
      load('resource templates', caps.resources, () => this.templatePages.load(1)),
      this.listSkills(client),
    ]);
    const skills = listing?.skills ?? [];
    this.noteCut('tools', listCutOf(client, 'tools/list'));
    this.noteCut('prompts', listCutOf(client, 'prompts/list'));
    this.noteCut('resources', this.resourceBudget.cut);
    this.noteCut('resourceTemplates', this.templatePages.cut);
    const incomplete = this.noteCut('skills', listing && listCutOf(client, 'skills/list'));
    this.features = { tools, prompts, resources, resourceTemplates, ...(listing ? { ...listing, skillFailures: this.features.skillFailures } : {}), incomplete };
    this.log.info(
      `Offers ${tools.length} tools, ${prompts.length} prompts, ${resources.length}${this.resourcesNextCursor ? '+' : ''} resources, ${resourceTemplates.length}${this.templatePages.hasMore ? '+' : ''} resource templates${skillsClient.supported ? `, ${skills.length} skills` : ''}`,
    );
    this.onDidChange();
  }

  /**
   * Notes whether a list was cut short at the cap (logged once per cut) and returns every list's state, for
   * `features.incomplete`: the view marks such a list incomplete and says why.
   */
  private noteCut(list: ListKind, why: string | undefined): ServerFeatures['incomplete'] {
    if (why && why !== this.cuts[list]) this.log.warn(`The list of ${LISTS[list].name} is incomplete: ${why}. Further pages were refused.`);
    if (why) this.cuts[list] = why;
    else delete this.cuts[list];
    const incomplete: NonNullable<ServerFeatures['incomplete']> = {};
    for (const [kind, cut] of Object.entries(this.cuts) as [ListKind, string][]) {
      const { name, group } = LISTS[kind];
      const line = `The list of ${name} is incomplete: ${cut}.`;
      incomplete[group] = incomplete[group] ? `${incomplete[group]}\n${line}` : line;
    }
    for (const group of Object.keys(incomplete) as (keyof typeof incomplete)[]) incomplete[group] += "\nFurther pages were refused (see the server's log).";
    this.features = { ...this.features, incomplete };
    return incomplete;
  }

  /** Reads and verifies one skill file; one that fails verification is noted (the view says why) and never returned. */
  async readSkillFile(client: Client, skill: Skill, ref: string | undefined, options: RequestOptions): Promise<SkillFile> {
    try {
      const file = await this.skillsOf(client).read(skill, ref, options);
      this.noteSkillVerification(file.uri, undefined);
      return file;
    } catch (e) {
      if (e instanceof SkillVerificationError) {
        this.log.warn(`Skill file ${e.uri} refused: ${e.message}`);
        this.noteSkillVerification(e.uri, e.message);
      }
      throw e;
    }
  }

  /** Notes a skill file's verification outcome: `failure` says why it was refused; undefined clears an earlier one. */
  noteSkillVerification(uri: string, failure: string | undefined): void {
    const failures = this.features.skillFailures ?? {};
    if (failures[uri] === failure) return;
    const others = { ...failures };
    delete others[uri];
    this.features = { ...this.features, skillFailures: failure === undefined ? others : { ...others, [uri]: failure } };
    this.onDidChange();
  }

  /** The SDK's skills client for `client`: it lists, reads and verifies (digest, size, frontmatter). */
  private skillsOf(client: Client): SkillsClient {
    if (this.skills?.client !== client) this.skills = { client, skills: new SkillsClient(client, { skipInvalid: true }) };
    return this.skills.skills;
  }

  /**
   * Fetches pages of resources from the start until at least `minPages` pages (or every page) are in, and sets the
   * next cursor. One page per request: the SDK's aggregate walk would fetch them all.
   */
  private async loadResourcePages(client: Client, minPages: number): Promise<ServerFeatures['resources']> {
    const generation = ++this.resourcesGeneration;
    // Until the reload is in, there is no valid cursor: "load more" waits for it.
    this.resourcesNextCursor = undefined;
    const opts = this.requestOptions;
    const budget = new ListBudget();
    let page = await client.request({ method: 'resources/list', params: {} }, opts);
    budget.admit(page.resources);
    const resources = [...page.resources];
    let pages = 1;
    for (; pages < minPages && page.nextCursor !== undefined && !budget.spent; pages++) {
      page = await client.listResources({ cursor: page.nextCursor }, opts);
      budget.admit(page.resources);
      resources.push(...page.resources);
    }
    if (generation === this.resourcesGeneration) {
      this.resourcesNextCursor = budget.spent ? undefined : page.nextCursor;
      this.resourcePagesLoaded = pages;
      this.resourceBudget = budget;
    }
    return resources;
  }

  /** Appends the next page of resources, if there is one. Concurrent calls share one request. */
  loadMoreResources(): Promise<void> {
    this.loadingMoreResources ??= this.fetchNextResourcePage().finally(() => (this.loadingMoreResources = undefined));
    return this.loadingMoreResources;
  }

  private async fetchNextResourcePage(): Promise<void> {
    const client = this.client();
    const cursor = this.resourcesNextCursor;
    if (!client || cursor === undefined) return;
    const generation = this.resourcesGeneration;
    const page = await client.listResources({ cursor }, this.requestOptions);
    // A reload (list_changed) in the meantime started over: this page belongs to the old list.
    if (generation !== this.resourcesGeneration) return;
    this.resourceBudget.admit(page.resources);
    // A server whose cursor does not advance would make "load more" repeat the same page forever.
    this.resourcesNextCursor = page.nextCursor === cursor || this.resourceBudget.spent ? undefined : page.nextCursor;
    this.resourcePagesLoaded++;
    this.noteCut('resources', this.resourceBudget.cut);
    this.features = { ...this.features, resources: [...this.features.resources, ...page.resources] };
    this.onDidChange();
  }

  /**
   * Reloads resources and their templates (as many pages of each as were loaded, so the view keeps its place), and the
   * skills: they are resources (SEP-2640), so the resources' `list_changed` and the user's Refresh list them again.
   */
  async refreshResources(): Promise<void> {
    const client = this.client();
    if (!client?.getServerCapabilities()?.resources) return;
    try {
      const [resources, resourceTemplates, listing] = await Promise.all([
        this.loadResourcePages(client, Math.max(1, this.resourcePagesLoaded)),
        this.templatePages.reload(),
        this.listSkills(client),
      ]);
      this.noteCut('resources', this.resourceBudget.cut);
      this.noteCut('resourceTemplates', this.templatePages.cut);
      if (listing) this.noteCut('skills', listCutOf(client, 'skills/list'));
      this.features = { ...this.features, resources, resourceTemplates, ...(listing ?? {}) };
      this.onDidChange();
    } catch (e) {
      this.log.warn(`Refreshing resources failed: ${(e as Error).message}`);
    }
  }

  /**
   * The skills (`skills/list`, every page, past any cached answer), or undefined when the server offers none.
   * Entries only: no skill file is read before the user or a model asks for it (SEP-2640: no prefetch).
   */
  private async listSkills(client: Client): Promise<Pick<ServerFeatures, 'skills' | 'invalidSkills'> | undefined> {
    const skillsClient = this.skillsOf(client);
    if (!skillsClient.supported) return undefined;
    try {
      // As the lists above: a list asked for again is fetched again, whatever its ttlMs said.
      const opts = { ...this.requestOptions, cacheMode: 'refresh' as const };
      const listing = await skillsClient.list(undefined, opts);
      const invalidSkills = listing.invalid.map(({ uri, reason }) => ({ uri, reason }));
      for (const bad of invalidSkills) this.log.warn(`Skill entry ${bad.uri ?? '(no URI)'} refused: ${bad.reason}`);
      return { skills: listing.skills, invalidSkills };
    } catch (e) {
      this.log.warn(`Listing skills failed: ${(e as Error).message}`);
      return { skills: [], invalidSkills: [] };
    }
  }
}
