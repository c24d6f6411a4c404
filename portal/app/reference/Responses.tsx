import type { BodyView, HeaderView, ResponseView } from "./model";
import { typeLabel, type SchemaNode } from "./schema";
import { Facts, SchemaTree } from "./SchemaTree";

export function RequestBody({ body, schemas }: { body: BodyView; schemas: Record<string, SchemaNode> }) {
  return (
    <section className="ref-block">
      <h4>
        Corpo della richiesta{" "}
        {(body.mediaTypes?.map((media) => media.contentType) ?? [body.contentType]).map((type) => (
          <code key={type} className="ref-media">
            {type}
          </code>
        ))}
        {body.required ? <span className="schema-required">obbligatorio</span> : null}
      </h4>
      {body.description ? <div className="ref-description" dangerouslySetInnerHTML={{ __html: body.description }} /> : null}
      {body.schema ? (
        <>
          <p className="schema-type">{typeLabel(body.schema)}</p>
          <SchemaTree node={body.schema} schemas={schemas} />
        </>
      ) : null}
    </section>
  );
}

/** Statuses with their schemas; their examples are shown beside the request samples (ResponseExamples). */
export function Responses({ responses, schemas }: { responses: ResponseView[]; schemas: Record<string, SchemaNode> }) {
  // Error statuses share one schema: explore it under the first status that uses it, not at each.
  const firstWithSchema = new Map<string, string>();
  // Most statuses send the same headers (request id, rate limits): each is described under the first status only.
  const firstWithHeader = new Map<string, string>();
  for (const { status, schema, headers } of responses) {
    if (schema?.kind === "ref" && !firstWithSchema.has(schema.name)) firstWithSchema.set(schema.name, status);
    for (const header of headers ?? []) if (!firstWithHeader.has(headerKey(header))) firstWithHeader.set(headerKey(header), status);
  }
  return (
    <section className="ref-block">
      <h4>Risposte</h4>
      {responses.map((response) => {
        const firstStatus = response.schema?.kind === "ref" ? firstWithSchema.get(response.schema.name) : undefined;
        const repeated = firstStatus !== undefined && firstStatus !== response.status;
        return (
          <details
            key={response.status}
            className={`ref-response ref-status-${response.status[0]}xx`}
            open={response.status.startsWith("2")}
          >
            <summary>
              <span className="ref-status">{response.status}</span>
              <span dangerouslySetInnerHTML={{ __html: response.description ?? "" }} />
            </summary>
            {response.schema ? (
              <>
                <p className="schema-type">
                  {`${typeLabel(response.schema)} `}
                  <code className="ref-media">{response.contentType}</code>
                  {repeated ? ` — campi come nella risposta ${firstStatus}` : null}
                </p>
                {repeated ? null : <SchemaTree node={response.schema} schemas={schemas} />}
              </>
            ) : null}
            {response.headers ? (
              <ResponseHeaders status={response.status} headers={response.headers} describedAt={firstWithHeader} />
            ) : null}
          </details>
        );
      })}
    </section>
  );
}

/** A header's identity within an operation: the same name, schema and description is the same header. */
const headerKey = (header: HeaderView) => JSON.stringify([header.name, header.description, header.schema]);

/**
 * The headers an answer carries: always (obbligatorio) or only in some cases, as the description says. A header the
 * operation already described under an earlier status names that status instead of repeating its description.
 */
function ResponseHeaders({ status, headers, describedAt }: { status: string; headers: HeaderView[]; describedAt: Map<string, string> }) {
  return (
    <div className="ref-response-headers">
      <p className="schema-type">Intestazioni</p>
      <ul className="schema-properties">
        {headers.map((header) => (
          <li key={header.name}>
            <div>
              <code>{header.name}</code>
              <span>{typeLabel(header.schema)}</span>
              {header.required ? <strong>sempre</strong> : null}
            </div>
            {describedAt.get(headerKey(header)) === status ? (
              <Facts facts={{ ...header.schema, description: header.description }} />
            ) : (
              <p>{`Come nella risposta ${describedAt.get(headerKey(header))}.`}</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
