import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Main } from "~/layout/Main";
import { searchSite } from "~/search/index.server";
import { KIND_LABELS } from "~/search/search";

export const meta: MetaFunction = () => [{ title: "Cerca | Flusso Developers" }, { name: "robots", content: "noindex" }];

/** Serves both the results page (no JavaScript) and the navbar box's requests as you type. */
export function loader({ request }: LoaderFunctionArgs) {
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim();
  return { query, results: query ? searchSite(query, 20) : [] };
}

export default function SearchPage() {
  const { query, results } = useLoaderData<typeof loader>();
  return (
    <Main className="search-page">
      <h1>Cerca</h1>
      <Form method="get" role="search" aria-label="Nuova ricerca">
        <input type="search" name="q" defaultValue={query} aria-label="Cerca nella documentazione e nell'API" />{" "}
        <button type="submit">Cerca</button>
      </Form>
      {query ? (
        <p>
          {results.length} risultati per <strong>{query}</strong>
        </p>
      ) : null}
      <ul className="search-results">
        {results.map((result) => (
          <li key={result.url}>
            <Link to={result.url}>{result.title}</Link> <span>({KIND_LABELS[result.kind].toLowerCase()})</span>
            <p>{result.excerpt}</p>
          </li>
        ))}
      </ul>
    </Main>
  );
}
