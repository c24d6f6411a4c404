/** One searchable thing: a docs page or an API operation. */
export interface SearchEntry {
  kind: "page" | "operation";
  title: string;
  url: string;
  /** Shown under the title: a page's description, an operation's method and path. */
  excerpt: string;
  /** Words that should match strongly: headings, operationId, tag. */
  keywords: string;
  /** Everything else worth matching, as plain text. */
  text: string;
}

export type SearchResult = Pick<SearchEntry, "kind" | "title" | "url" | "excerpt">;

/** Lower case without accents, so "perche" finds "perché". */
export function normalize(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * Entries matching every word of the query, best first: words in the title weigh most, then
 * keywords, then text. A small index (tens of pages and operations) needs nothing cleverer.
 */
export function search(entries: SearchEntry[], query: string, limit = 10): SearchResult[] {
  const words = normalize(query)
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
  if (words.length === 0) return [];
  return entries
    .map((entry) => ({ entry, score: score(entry, words) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.entry.title.localeCompare(b.entry.title))
    .slice(0, limit)
    .map(({ entry: { kind, title, url, excerpt } }) => ({ kind, title, url, excerpt }));
}

function score(entry: SearchEntry, words: string[]): number {
  const title = normalize(entry.title);
  const keywords = normalize(entry.keywords);
  const text = normalize(`${entry.excerpt} ${entry.text}`);
  let total = 0;
  for (const word of words) {
    const points =
      (title.includes(word) ? 10 : 0) +
      (title.split(/\s+/).some((w) => w.startsWith(word)) ? 5 : 0) +
      (keywords.includes(word) ? 4 : 0) +
      (text.includes(word) ? 1 : 0);
    if (points === 0) return 0;
    total += points;
  }
  return total;
}
