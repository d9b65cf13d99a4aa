// Tool search: when there are more tools than one model request can carry, the model asks for the tools it needs in
// words and gets the best matches. A lexical ranking (BM25F over the tool's name, title, description and server name),
// no model and no network. Names are split like words (`createIssue`, `create_issue`, `create-issue` all read
// "create issue"), words are lowercased and lightly stemmed ("issues", "created" → "issu", "creat"). Server text is
// read char by char (no regular expression) and each field is capped, so an index of 2,000 tools builds in a few
// milliseconds and a search takes well under one.

/** What is read of each field at most: a description longer than this is ranked by its start. */
export const FIELD_LIMITS = { name: 200, title: 200, description: 2000, server: 200, query: 1000 } as const;
/** Tokens of one field at most (a description of one-letter words stays cheap). */
const MAX_TOKENS = 400;

/** How much a word counts in each field: a word of the name says more than one of a long description. */
const WEIGHTS = { name: 3, title: 2, server: 2, description: 1 } as const;
type Field = keyof typeof WEIGHTS;
const FIELDS = Object.keys(WEIGHTS) as Field[];
/** BM25's saturation and length normalisation. */
const K1 = 1.2;
const B = 0.6;

/** Words that say nothing about which tool is meant. */
const STOP_WORDS = new Set(
  (
    'a an the of to in on at by for from with and or is are be it its this that these those i me my we our you your ' +
    'can could would should will please want need some any all into as do does did how what which who when where ' +
    'there here tool tools using use via'
  ).split(' '),
);

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
/** Letters beyond ASCII count as lowercase letters: they are kept, never split. */
const isLetter = (c: number) => isUpper(c) || isLower(c) || c > 127;

/**
 * The words of a text, split at anything not a letter or digit, at camelCase humps (`getHTTPResponse` → get, http,
 * response) and between letters and digits; lowercased, stop words dropped, stemmed. At most `limit` characters read.
 */
export function tokenize(text: string, limit: number = FIELD_LIMITS.query): string[] {
  const out: string[] = [];
  const s = text.length > limit ? text.slice(0, limit) : text;
  const push = (from: number, to: number) => {
    const word = stem(s.slice(from, to).toLowerCase());
    if (word && !STOP_WORDS.has(word) && out.length < MAX_TOKENS) out.push(word);
  };
  // A run of letters and digits, and the start of its current part.
  let run = -1;
  let start = -1;
  const endRun = (end: number) => {
    if (run < 0) return;
    push(start, end);
    // A run split into parts also counts whole: "GitHub" is "git", "hub" and "github".
    if (start > run) push(run, end);
    run = start = -1;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isLetter(c) && !isDigit(c)) {
      endRun(i);
      continue;
    }
    if (run < 0) {
      run = start = i;
      continue;
    }
    const p = s.charCodeAt(i - 1);
    const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    const hump = isUpper(c) && (isLower(p) || (isUpper(p) && isLower(next)));
    if (hump || isDigit(c) !== isDigit(p)) {
      push(start, i);
      start = i;
    }
  }
  endRun(s.length);
  return out;
}

/** A light stemmer: plural and verb endings off, so "issues"/"issue" and "created"/"create"/"creating" meet. */
export function stem(word: string): string {
  if (STOP_WORDS.has(word) || word.length <= 3) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** Words a request uses for what tools call otherwise (after stemming): "read a file" means a "get" tool. */
const SYNONYMS = new Map<string, string[]>(
  (
    [
      ['get', 'read fetch retrieve view show look inspect describe'],
      ['create', 'add new make open start write post insert'],
      ['delete', 'remove drop erase destroy purge'],
      ['update', 'edit change modify set rename move'],
      ['list', 'find search browse show all'],
      ['send', 'post message'],
    ] as const
  ).flatMap(([word, others]) => others.split(' ').map((o): [string, string] => [stem(o), stem(word)]))
    .reduce((m, [from, to]) => m.set(from, [...(m.get(from) ?? []), to]), new Map<string, string[]>()),
);
/** How much a synonym counts beside the word itself. */
const SYNONYM_WEIGHT = 0.5;

/** What the search reads of a tool (a NamedTool is one). */
export interface SearchableTool {
  serverName: string;
  tool: { name: string; title?: string; description?: string };
}

export interface ToolMatch<T> {
  item: T;
  score: number;
  /** Where the tool is in the indexed list. */
  position: number;
}

/** An index of one list of tools, built once, searched many times. */
export class ToolSearchIndex<T extends SearchableTool> {
  /** For each word: the tools that have it and how much it weighs in each (BM25F's combined term frequency). */
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();

  constructor(readonly items: readonly T[]) {
    const fieldsOf = (t: T): Record<Field, string[]> => ({
      name: tokenize(t.tool.name, FIELD_LIMITS.name),
      title: tokenize(t.tool.title ?? '', FIELD_LIMITS.title),
      server: tokenize(t.serverName, FIELD_LIMITS.server),
      description: tokenize(t.tool.description ?? '', FIELD_LIMITS.description),
    });
    const docs = items.map(fieldsOf);
    const average = {} as Record<Field, number>;
    for (const f of FIELDS) average[f] = docs.reduce((n, d) => n + d[f].length, 0) / Math.max(1, docs.length) || 1;
    docs.forEach((d, doc) => {
      const tf = new Map<string, number>();
      for (const f of FIELDS) {
        const norm = WEIGHTS[f] / (1 - B + (B * d[f].length) / average[f]);
        for (const word of d[f]) tf.set(word, (tf.get(word) ?? 0) + norm);
      }
      for (const [word, value] of tf) {
        let list = this.postings.get(word);
        if (!list) this.postings.set(word, (list = []));
        list.push({ doc, tf: value });
      }
    });
  }

  get size(): number {
    return this.items.length;
  }

  /** The best `limit` matches for the query, best first; none when no word of the query is in any tool. */
  search(query: string, limit = 5): ToolMatch<T>[] {
    const n = this.items.length;
    const scores = new Map<number, number>();
    const words = new Map<string, number>();
    const asked = tokenize(query, FIELD_LIMITS.query);
    for (const word of asked) words.set(word, 1);
    for (const word of asked) for (const other of SYNONYMS.get(word) ?? []) if (!words.has(other)) words.set(other, SYNONYM_WEIGHT);
    for (const [word, weight] of words) {
      const list = this.postings.get(word);
      if (!list) continue;
      const idf = weight * Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf) / (K1 + tf));
    }
    // Ties go to the tool listed first, so the order is stable.
    const better = (a: { doc: number; score: number }, b: { doc: number; score: number }) => a.score > b.score || (a.score === b.score && a.doc < b.doc);
    const top: { doc: number; score: number }[] = [];
    if (limit < 1) return [];
    for (const [doc, score] of scores) {
      const hit = { doc, score };
      if (top.length === limit && !better(hit, top[top.length - 1])) continue;
      let i = top.length;
      while (i > 0 && better(hit, top[i - 1])) i--;
      top.splice(i, 0, hit);
      if (top.length > limit) top.pop();
    }
    return top.map(({ doc, score }) => ({ item: this.items[doc], score, position: doc }));
  }
}

/**
 * The servers a request names: a server's name is mentioned when its words appear together in the text, e.g.
 * "list my github issues" mentions "github", "ask the Jira Cloud server" mentions "jira-cloud".
 */
export function mentionedServers(text: string, serverNames: readonly string[]): string[] {
  const joined = ` ${plainWords(text, FIELD_LIMITS.query)} `;
  return serverNames.filter((name) => {
    const own = plainWords(name, FIELD_LIMITS.server);
    return own.length > 0 && joined.includes(` ${own} `);
  });
}

/** The text's words as written, lowercased, one space between: no humps split, no stems, no stop words dropped. */
function plainWords(text: string, limit: number): string {
  let out = '';
  let gap = false;
  const s = text.length > limit ? text.slice(0, limit) : text;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isLetter(c) || isDigit(c)) {
      if (gap && out) out += ' ';
      out += s[i];
      gap = false;
    } else {
      gap = true;
    }
  }
  return out.toLowerCase();
}

/** The last index `rankTools` built, reused while the tools are the same ones (a list of tools rarely changes). */
let cached: { tools: SearchableTool['tool'][]; servers: string[]; index: ToolSearchIndex<SearchableTool> } | undefined;

/** The best `limit` of these tools for the query, best first (for one-off searches: the index is kept for the next). */
export function rankTools<T extends SearchableTool>(tools: readonly T[], query: string, limit: number): T[] {
  const same = cached?.tools.length === tools.length && tools.every((t, i) => cached!.tools[i] === t.tool && cached!.servers[i] === t.serverName);
  if (!same) cached = { tools: tools.map((t) => t.tool), servers: tools.map((t) => t.serverName), index: new ToolSearchIndex(tools) };
  return cached!.index.search(query, limit).map((m) => tools[m.position]);
}
