import { useEffect, useId, useState, type FormEvent } from "react";
import { useEnvironment } from "~/behaviour/environment";
import { readStorage, writeStorage } from "~/behaviour/storage";
import type { OperationView } from "./model";
import { API_KEY_STORAGE_KEY, initialInput, requestUrl, sendRequest, type TryItInput, type TryItResult } from "./tryIt";

type Outcome = { kind: "idle" } | { kind: "sending" } | { kind: "done"; result: TryItResult } | { kind: "failed"; message: string };

/** Sends the operation to the selected environment with a key the user pastes. */
export function TryItForm({ operation }: { operation: OperationView }) {
  const { host } = useEnvironment();
  const [input, setInput] = useState<TryItInput>(() => initialInput(operation));
  const [apiKey, setApiKey] = useState("");
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" });
  const id = useId();

  useEffect(() => setApiKey(readStorage(API_KEY_STORAGE_KEY, "sessionStorage") ?? ""), []);

  const updateKey = (value: string) => {
    setApiKey(value);
    writeStorage(API_KEY_STORAGE_KEY, value || null, "sessionStorage");
  };
  const url = requestUrl(host, operation, input);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setOutcome({ kind: "sending" });
    try {
      setOutcome({ kind: "done", result: await sendRequest(url, operation, input, apiKey) });
    } catch (error) {
      // A failed fetch says nothing more specific: unreachable host, TLS or a CORS refusal.
      setOutcome({ kind: "failed", message: `La richiesta non è partita o è stata bloccata (${String(error)}).` });
    }
  }

  const field = (name: string) => `${id}-${name}`;
  return (
    <>
      <form onSubmit={submit}>
        <label htmlFor={field("key")}>Chiave API (resta solo in questa scheda)</label>
        <input
          id={field("key")}
          name="api-key"
          type="password"
          autoComplete="off"
          placeholder="fls_dev_…"
          value={apiKey}
          onChange={(event) => updateKey(event.target.value)}
        />
        {Object.entries(input.pathParams).map(([name, value]) => (
          <TextField
            key={`path-${name}`}
            id={field(`path-${name}`)}
            label={name}
            value={value}
            onChange={(next) => setInput({ ...input, pathParams: { ...input.pathParams, [name]: next } })}
          />
        ))}
        {Object.entries(input.query).map(([name, value]) => (
          <TextField
            key={`query-${name}`}
            id={field(`query-${name}`)}
            label={`${name} (query)`}
            value={value}
            onChange={(next) => setInput({ ...input, query: { ...input.query, [name]: next } })}
          />
        ))}
        {operation.list ? (
          <TextField
            id={field("extra")}
            label="Altri parametri (es. filter[status]=PAID)"
            value={input.extraQuery}
            onChange={(next) => setInput({ ...input, extraQuery: next })}
          />
        ) : null}
        {operation.requestBody ? (
          <>
            <label htmlFor={field("body")}>Corpo ({operation.requestBody.contentType})</label>
            <textarea
              id={field("body")}
              rows={Math.min(16, input.body.split("\n").length + 1)}
              spellCheck={false}
              value={input.body}
              onChange={(event) => setInput({ ...input, body: event.target.value })}
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

function TextField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (value: string) => void }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" value={value} onChange={(event) => onChange(event.target.value)} />
    </>
  );
}

function TryItOutcome({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === "failed")
    return (
      <p role="alert" className="ref-try-error">
        {outcome.message}
      </p>
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
