import { normalize, search, type SearchEntry } from "../../app/search/search";

const entries: SearchEntry[] = [
  {
    kind: "page",
    title: "Errors",
    url: "/basics/errors",
    excerpt: "The error body and every code.",
    keywords: "Status codes",
    text: "unauthorized forbidden perché",
  },
  {
    kind: "page",
    title: "Pagination",
    url: "/basics/paginate-results",
    excerpt: "Walk a list with cursors.",
    keywords: "cursor page_size",
    text: "errors are rare",
  },
  {
    kind: "operation",
    title: "List transactions",
    url: "/api-reference/#operation/listTransactions",
    excerpt: "GET /api/v1/companies/{company_id}/transactions",
    keywords: "listTransactions Transactions GET",
    text: "bank transactions",
  },
];

describe("search", () => {
  it("finds a page by a word of its title before pages that only mention it", () => {
    expect(search(entries, "errors").map((r) => r.url)).toEqual(["/basics/errors", "/basics/paginate-results"]);
  });

  it("finds an operation by summary, operationId or path", () => {
    expect(search(entries, "list transactions")[0]).toEqual({
      kind: "operation",
      title: "List transactions",
      url: "/api-reference/#operation/listTransactions",
      excerpt: "GET /api/v1/companies/{company_id}/transactions",
    });
    expect(search(entries, "listtransactions")).toHaveLength(1);
  });

  it("requires every word, ignores case and accents, and returns nothing for an empty query", () => {
    expect(search(entries, "errors cursor")).toEqual([search(entries, "pagination")[0]]);
    expect(search(entries, "PERCHE")[0].url).toBe("/basics/errors");
    expect(search(entries, "  ")).toEqual([]);
    expect(normalize("Perché")).toBe("perche");
  });

  it("caps the number of results", () => {
    expect(search(entries, "e", 2)).toHaveLength(2);
  });
});
