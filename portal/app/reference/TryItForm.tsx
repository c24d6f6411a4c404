import { useId, useState, type FormEvent } from "react";
import { useEnvironment } from "~/behaviour/environment";
import type { OperationView } from "./model";
import { COMPANY_PARAMETER, type TryItInput } from "./tryIt";
import {
  diagnoseFailure,
  extraQueryExample,
  failureMessage,
  KEY_PREFIXES,
  keyNotice,
  requestUrl,
  sendRequest,
  type TryItResult,
} from "./tryItSend";
import { useStartingCompany, useTryItSettings } from "./tryItSettings";

type Outcome =
  { kind: "idle" } | { kind: "sending" } | { kind: "done"; result: TryItResult } | { kind: "failed"; message: string; detail: string };

/**
 * Sends the operation to the selected environment with a key the user pastes. The input belongs to the operation
 * (the code samples beside it show the same request); the key and the company belong to the whole reference.
 */
export function TryItForm({
  operation,
  input,
  onInput,
}: {
  operation: OperationView;
  input: TryItInput;
  onInput: (input: TryItInput) => void;
}) {
  const { environment, host } = useEnvironment();
  const { apiKey, setApiKey, setCompanyId } = useTryItSettings();
  // Neither typed nor the demo company: the field holds the reference's example id, which no key can access.
  const exampleCompany = useStartingCompany() === "";
  // The answer belongs to the host it came from: after a switch of environment it would pass for the other's.
  const [sent, setSent] = useState<{ host: string; outcome: Outcome }>({ host, outcome: { kind: "idle" } });
  const outcome = sent.host === host ? sent.outcome : { kind: "idle" as const };
  const setOutcome = (next: Outcome) => setSent({ host, outcome: next });
  const id = useId();
  const url = requestUrl(host, operation, input);
  const notice = keyNotice(environment, apiKey);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setOutcome({ kind: "sending" });
    try {
      setOutcome({ kind: "done", result: await sendRequest(url, operation, input, apiKey) });
    } catch (error) {
      const kind = await diagnoseFailure(url, window.location.href, navigator.onLine);
      setOutcome({ kind: "failed", message: failureMessage(kind, url, operation.method, window.location.origin), detail: String(error) });
    }
  }

  const setPathParam = (name: string, value: string) => {
    if (name === COMPANY_PARAMETER) setCompanyId(value);
    onInput({ ...input, pathParams: { ...input.pathParams, [name]: value } });
  };
  const extraExample = operation.list ? extraQueryExample(operation.list) : undefined;
  const field = (name: string) => `${id}-${name}`;
  return (
    <>
      <form
        onSubmit={(event) => {
          // submit shows a failed request itself; what is left (the diagnosis failing) goes to the console.
          submit(event).catch((error: unknown) => console.error("Prova non riuscita", error));
        }}
      >
        <label htmlFor={field("key")}>Chiave API (resta solo in questa scheda)</label>
        <input
          id={field("key")}
          name="api-key"
          type="password"
          autoComplete="off"
          placeholder={`${KEY_PREFIXES[environment]}…`}
          value={apiKey}
          aria-describedby={notice ? field("key-notice") : undefined}
          onChange={(event) => setApiKey(event.target.value)}
        />
        {notice ? (
          <p
            id={field("key-notice")}
            className={notice.mismatch ? "ref-try-notice ref-try-notice-mismatch" : "ref-try-notice"}
            data-testid="try-it-key-notice"
          >
            {notice.text}
          </p>
        ) : null}
        {Object.entries(input.pathParams).map(([name, value]) => (
          <TextField
            key={`path-${name}`}
            id={field(`path-${name}`)}
            label={name}
            value={value}
            note={
              name === COMPANY_PARAMETER && exampleCompany
                ? "Id d'esempio (risponde 403): metti quello di una tua azienda, che GET /companies elenca."
                : undefined
            }
            onChange={(next) => setPathParam(name, next)}
          />
        ))}
        {Object.entries(input.query).map(([name, value]) => (
          <TextField
            key={`query-${name}`}
            id={field(`query-${name}`)}
            label={`${name} (query)`}
            value={value}
            onChange={(next) => onInput({ ...input, query: { ...input.query, [name]: next } })}
          />
        ))}
        {operation.list ? (
          <TextField
            id={field("extra")}
            label={extraExample ? `Altri parametri (es. ${extraExample})` : "Altri parametri"}
            placeholder={extraExample}
            value={input.extraQuery}
            onChange={(next) => onInput({ ...input, extraQuery: next })}
          />
        ) : null}
        {operation.requestBody ? (
          <>
            <label htmlFor={field("body")}>Corpo ({input.contentType ?? operation.requestBody.contentType})</label>
            <textarea
              id={field("body")}
              rows={Math.min(16, input.body.split("\n").length + 1)}
              spellCheck={false}
              value={input.body}
              onChange={(event) => onInput({ ...input, body: event.target.value })}
            />
          </>
        ) : null}
        <p className="ref-try-url">
          <span className={`ref-method ref-method-${operation.method.toLowerCase()}`}>{operation.method}</span> <code>{url}</code>
        </p>
        <button type="submit" disabled={outcome.kind === "sending" || apiKey === ""}>
          {outcome.kind === "sending" ? "Invio…" : "Invia"}
        </button>
      </form>
      <TryItOutcome outcome={outcome} />
    </>
  );
}

function TextField({
  id,
  label,
  value,
  placeholder,
  note,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  /** A line under the field, read with it by screen readers. */
  note?: string;
  onChange: (value: string) => void;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        value={value}
        placeholder={placeholder}
        aria-describedby={note ? `${id}-note` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {note ? (
        <p id={`${id}-note`} className="ref-try-notice" data-testid="try-it-company-notice">
          {note}
        </p>
      ) : null}
    </>
  );
}

function TryItOutcome({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === "failed")
    return (
      <div role="alert" className="ref-try-error">
        <p data-testid="try-it-error">{outcome.message}</p>
        <p className="ref-try-error-detail">Errore del browser: {outcome.detail}</p>
      </div>
    );
  if (outcome.kind !== "done") return null;
  const { result } = outcome;
  return (
    <output className="ref-try-result" aria-live="polite">
      <p>
        Stato: <strong data-testid="try-it-status">{result.status}</strong> {result.statusText} · {result.durationMs} ms
      </p>
      <details>
        <summary>Intestazioni</summary>
        <pre tabIndex={0}>
          <code>{result.headers.map(([name, value]) => `${name}: ${value}`).join("\n")}</code>
        </pre>
      </details>
      <pre tabIndex={0}>
        <code data-testid="try-it-body">{result.body}</code>
      </pre>
    </output>
  );
}
