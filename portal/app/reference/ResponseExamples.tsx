import { useId, useState } from "react";
import { SITE_LANGUAGE } from "~/layout/site";
import type { ResponseView } from "./model";
import { bodyText } from "./tryIt";

/**
 * The response examples of an operation in the right-hand column, beside the request samples (as three-column
 * references lay them out): one tab per status that has an example, the first success shown first.
 */
export function ResponseExamples({ responses }: { responses: ResponseView[] }) {
  const withExample = responses.filter((response) => response.example !== undefined);
  const firstSuccess = Math.max(
    0,
    withExample.findIndex((response) => response.status.startsWith("2")),
  );
  const [selected, setSelected] = useState(firstSuccess);
  const baseId = useId();
  if (withExample.length === 0) return null;
  const shown = withExample[Math.min(selected, withExample.length - 1)];
  return (
    // Not a landmark: the reference has one such column per operation, and landmarks must be few and distinct.
    <div className="ref-response-examples">
      <div className="ref-response-tabs" role="tablist" aria-label="Stato della risposta">
        <span className="ref-response-examples-title" lang={SITE_LANGUAGE}>
          Risposta
        </span>
        {withExample.map((response, index) => (
          <button
            key={response.status}
            type="button"
            role="tab"
            id={`${baseId}-${response.status}`}
            aria-selected={response === shown}
            aria-controls={`${baseId}-panel`}
            className={`ref-response-tab ref-status-${response.status[0]}xx`}
            onClick={() => setSelected(index)}
          >
            {response.status}
          </button>
        ))}
      </div>
      {/* A figure may not take the tabpanel role: the panel wraps it. */}
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${shown.status}`}>
        <figure className="ref-example">
          <figcaption>{shown.contentType ?? "application/json"}</figcaption>
          <pre tabIndex={0}>
            <code>{bodyText(shown.contentType, shown.example)}</code>
          </pre>
        </figure>
      </div>
    </div>
  );
}
