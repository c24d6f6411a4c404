/** One searchable thing: a docs page, a section of one (an `##`/`###` heading and its text), or an API operation. */
export interface SearchEntry {
  kind: "page" | "section" | "operation";
  title: string;
  url: string;
  /** Shown under the title: a page's description, a section's page, an operation's method and path. */
  excerpt: string;
  /** Words that should match strongly: headings, operationId, tag. */
  keywords: string;
  /** Everything else worth matching, as plain text. */
  text: string;
}

export type SearchResult = Pick<SearchEntry, "kind" | "title" | "url" | "excerpt">;

/** How a result's kind is labelled in the site's language. */
export const KIND_LABELS: Record<SearchEntry["kind"], string> = { page: "Pagina", section: "Sezione", operation: "API" };

/** Lower case without accents, so "perche" finds "perché". */
export function normalize(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

const WORD = /[^\p{L}\p{N}_]+/u;

/**
 * Italian words integrators search for (the site's own language), by stem, with the English words the docs use.
 * A stem matches any word it starts: "fattur" finds "fattura" and "fatture".
 */
const ITALIAN: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["riconcilia", ["reconciliation", "reconcile"]],
  ["fattur", ["invoice"]],
  ["nota di credito", ["credit note"]],
  ["note di credito", ["credit note"]],
  ["scadenz", ["flow", "deadline", "due"]],
  ["pagament", ["payment", "paid"]],
  ["pagat", ["paid"]],
  ["movimen", ["transaction"]],
  ["transazion", ["transaction"]],
  ["bonific", ["transfer"]],
  ["incass", ["credit", "payment"]],
  ["cont", ["account"]],
  ["controparti", ["counterpart"]],
  ["controparte", ["counterpart"]],
  ["categori", ["category", "categories"]],
  ["aziend", ["company", "companies"]],
  ["societ", ["company", "companies"]],
  ["chiav", ["key"]],
  ["error", ["error"]],
  ["ambient", ["environment"]],
  ["svilupp", ["development"]],
  ["produzion", ["production"]],
  ["fornitor", ["supplier"]],
  ["client", ["customer", "client"]],
  ["paginazion", ["pagination", "cursor"]],
  ["pagin", ["page", "pagination"]],
  ["filtr", ["filter"]],
  ["ordinament", ["sort"]],
  ["ordina", ["sort"]],
  ["espansion", ["expand"]],
  ["espand", ["expand"]],
  ["document", ["document"]],
  ["autenticazion", ["authentication"]],
  ["limit", ["limit", "rate"]],
  ["notific", ["webhook", "notification"]],
  ["esit", ["receipt", "outcome"]],
  ["consegn", ["delivery", "delivered"]],
  ["scart", ["discarded", "rejected"]],
  ["partita iva", ["vat number"]],
  ["codice fiscale", ["tax number"]],
];

interface Term {
  /** What the query said. */
  word: string;
  /** English words that stand for it too (an Italian query word). */
  alternatives: string[];
}

/** The query's words; Italian phrases and words also match the English words of the docs. */
function terms(query: string): Term[] {
  let text = normalize(query);
  const phrases: Term[] = [];
  for (const [italian, english] of ITALIAN) {
    if (italian.includes(" ") && text.includes(italian)) {
      phrases.push({ word: italian, alternatives: [...english] });
      text = text.replace(italian, " ");
    }
  }
  const words = text.split(WORD).filter(Boolean);
  return [
    ...phrases,
    ...words.map((word) => ({
      word,
      alternatives: ITALIAN.filter(([stem]) => !stem.includes(" ") && word.startsWith(stem) && word.length >= stem.length).flatMap(
        ([, english]) => english,
      ),
    })),
  ];
}

/** Optimal string alignment distance, stopped early once it exceeds `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], previous2[j - 2] + 1);
      best = Math.min(best, row[j]);
    }
    if (best > max) return max + 1;
    previous2 = previous;
    previous = row;
  }
  return previous[b.length];
}

/** Typos allowed in a word: none below 4 letters, one up to 7, two beyond. */
const typosAllowed = (word: string) => (word.length < 4 ? 0 : word.length < 8 ? 1 : 2);

/** The site's entries with their fields normalised once, and every word they hold (for typo corrections). */
export interface SearchIndex {
  entries: Array<{ entry: SearchEntry; title: string; keywords: string; text: string }>;
  vocabulary: string[];
}

export function searchIndex(entries: SearchEntry[]): SearchIndex {
  const indexed = entries.map((entry) => ({
    entry,
    title: normalize(entry.title),
    keywords: normalize(entry.keywords),
    text: normalize(`${entry.excerpt} ${entry.text}`),
  }));
  const vocabulary = new Set<string>();
  for (const item of indexed)
    for (const word of `${item.title} ${item.keywords} ${item.text}`.split(WORD)) if (word.length >= 3) vocabulary.add(word);
  return { entries: indexed, vocabulary: [...vocabulary] };
}

/** A term's exact forms, and when none of them is anywhere on the site, the site's words one or two typos away. */
function expand(index: SearchIndex, term: Term): { exact: string[]; corrected: string[] } {
  const exact = [term.word, ...term.alternatives];
  const found = index.entries.some((item) =>
    exact.some((form) => item.title.includes(form) || item.keywords.includes(form) || item.text.includes(form)),
  );
  const max = typosAllowed(term.word);
  if (found || max === 0) return { exact, corrected: [] };
  // A typo near a word's start: compare with as much of the indexed word ("webhok" against "webhook" of "webhooks").
  // Typos seldom hit the first letter: keeping it cuts the words to compare twentyfold.
  const corrected = index.vocabulary.filter(
    (word) =>
      word[0] === term.word[0] &&
      (editDistance(term.word, word, max) <= max || editDistance(term.word, word.slice(0, term.word.length + 1), max) <= max),
  );
  return { exact, corrected };
}

/**
 * Entries matching every word of the query, best first: entries whose title holds every word come before all
 * others (a page or section named after the query before pages that mention it), then by points: title, keywords,
 * text; exact matches beat typo corrections. Sections and operations land on their anchor.
 */
export function search(entries: SearchEntry[], query: string, limit = 10): SearchResult[] {
  return searchIndexed(searchIndex(entries), query, limit);
}

/** `search` over an index made beforehand with `searchIndex`. */
export function searchIndexed(index: SearchIndex, query: string, limit = 10): SearchResult[] {
  const wanted = terms(query).map((term) => ({ term, ...expand(index, term) }));
  if (wanted.length === 0) return [];
  return index.entries
    .map((item) => ({ item, ...score(item, wanted, normalize(query).trim()) }))
    .filter(({ points }) => points > 0)
    .sort(
      (a, b) =>
        b.titleTier - a.titleTier ||
        b.points - a.points ||
        kindOrder(a.item.entry) - kindOrder(b.item.entry) ||
        a.item.entry.title.localeCompare(b.item.entry.title),
    )
    .slice(0, limit)
    .map(({ item: { entry } }) => ({ kind: entry.kind, title: entry.title, url: entry.url, excerpt: entry.excerpt }));
}

/** With equal points, a page before its sections, sections before operations. */
const kindOrder = (entry: SearchEntry) => ({ page: 0, section: 1, operation: 2 })[entry.kind];

type Expanded = { term: Term; exact: string[]; corrected: string[] };

/** 2 when the field holds the term (or its Italian's English), 1 when only a typo correction, else 0. */
function matches(text: string, { exact, corrected }: Expanded): number {
  if (exact.some((form) => text.includes(form))) return 2;
  return corrected.some((form) => text.includes(form)) ? 1 : 0;
}

function score(item: SearchIndex["entries"][number], wanted: Expanded[], query: string): { points: number; titleTier: number } {
  let points = 0;
  let inTitle = 0;
  for (const expanded of wanted) {
    const title = matches(item.title, expanded);
    const keywords = matches(item.keywords, expanded);
    const text = matches(item.text, expanded);
    if (title + keywords + text === 0) return { points: 0, titleTier: 0 };
    const startsWord = item.title.split(WORD).some((word) => word.startsWith(expanded.term.word));
    points += title * 5 + (startsWord ? 5 : 0) + keywords * 2 + text * 0.5;
    if (title > 0) inTitle += 1;
  }
  // A title that is the query itself ("Authentication", "currency_mismatch", "document.updated") comes first of all.
  const exact = item.title === wanted.map((expanded) => expanded.term.word).join(" ") || item.title === query;
  return { points, titleTier: exact ? 2 : inTitle === wanted.length ? 1 : 0 };
}
