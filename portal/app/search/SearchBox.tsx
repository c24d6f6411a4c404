import { Link, useFetcher, useNavigate } from "@remix-run/react";
import "./search.css";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { loader } from "~/routes/search";
import { KIND_LABELS } from "./search";

const DEBOUNCE_MS = 150;
const SHOWN_RESULTS = 8;

/**
 * The site search for the navbar. Without JavaScript it is a plain form to /search; once
 * hydrated it asks the same route as you type and lists the best matches under the box.
 */
export function SearchBox() {
  const fetcher = useFetcher<typeof loader>();
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const results = query.trim() && fetcher.data?.query === query.trim() ? fetcher.data.results.slice(0, SHOWN_RESULTS) : [];

  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (value: string) => {
    setQuery(value);
    setActive(-1);
    setOpen(true);
    clearTimeout(timer.current);
    if (value.trim()) timer.current = setTimeout(() => fetcher.load(`/search?q=${encodeURIComponent(value.trim())}`), DEBOUNCE_MS);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") setOpen(false);
    else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (results.length ? (current + step + results.length) % results.length : -1));
    } else if (event.key === "Enter" && results[active]) {
      event.preventDefault();
      setOpen(false);
      navigate(results[active].url);
    }
  };

  const expanded = open && results.length > 0;
  return (
    <form
      method="get"
      action="/search"
      role="search"
      aria-label="Cerca nel sito"
      className="site-search"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <input
        type="search"
        name="q"
        value={query}
        placeholder="Cerca"
        aria-label="Cerca nella documentazione e nell'API"
        autoComplete="off"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(event) => change(event.target.value)}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" className="site-search-results" hidden={!expanded}>
        {results.map((result, index) => (
          <li key={result.url} id={`${listId}-${index}`} role="option" aria-selected={index === active}>
            <Link to={result.url} onClick={() => setOpen(false)}>
              <span className="site-search-kind">{KIND_LABELS[result.kind]}</span>
              <span className="site-search-title">{result.title}</span>
              <span className="site-search-excerpt">{result.excerpt}</span>
            </Link>
          </li>
        ))}
      </ul>
    </form>
  );
}
