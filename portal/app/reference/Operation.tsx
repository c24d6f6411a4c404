import { operationAnchor } from "./anchor";
import type { OperationView } from "./model";
import { OperationRequest } from "./OperationRequest";
import { ListOptionsTable, Parameters } from "./Parameters";
import { RequestBody, Responses } from "./Responses";
import type { SchemaNode } from "./schema";
import { ON_SERVER } from "./onServer";
import { ServerRendered } from "./serverRendered";

export function Operation({ operation, schemas }: { operation: OperationView; schemas: Record<string, SchemaNode> }) {
  return (
    <section id={operationAnchor(operation.id)} className="ref-operation" aria-labelledby={`${operation.id}-title`}>
      <ServerRendered className="ref-operation-docs">
        {ON_SERVER ? (
          <>
            <h3 id={`${operation.id}-title`}>
              <a href={`#${operationAnchor(operation.id)}`}>{operation.summary}</a>
              {operation.deprecated ? <span className="schema-flag">deprecato</span> : null}
            </h3>
            <p className="ref-endpoint">
              <span className={`ref-method ref-method-${operation.method.toLowerCase()}`}>{operation.method}</span>
              {operation.webhook ? <span>Webhook: Flusso lo invia al tuo endpoint</span> : <code>{operation.path}</code>}
            </p>
            {operation.permission ? (
              <p className="ref-permission">
                Permesso della chiave: <code>{operation.permission}</code> (<a href="/authentication#permissions">permessi</a>)
              </p>
            ) : null}
            {operation.description ? <div className="ref-description" dangerouslySetInnerHTML={{ __html: operation.description }} /> : null}
            {operation.webhook ? (
              <p>
                Ogni invio è firmato: <a href="/basics/webhook#verifying-signatures">come verificare la firma</a>.
              </p>
            ) : null}
            <Parameters parameters={operation.parameters} schemas={schemas} />
            {operation.list ? <ListOptionsTable list={operation.list} /> : null}
            {operation.requestBody ? <RequestBody body={operation.requestBody} schemas={schemas} /> : null}
            <Responses responses={operation.responses} schemas={schemas} />
          </>
        ) : null}
      </ServerRendered>
      <div className="ref-operation-samples">
        {operation.webhook ? (
          // The integrator receives it: the payload instead of request samples and a try-it panel.
          <figure className="ref-example">
            <figcaption>Esempio di payload</figcaption>
            <pre tabIndex={0}>
              <code>{JSON.stringify(operation.example.body, null, 2)}</code>
            </pre>
          </figure>
        ) : (
          <OperationRequest operation={operation} />
        )}
      </div>
    </section>
  );
}
