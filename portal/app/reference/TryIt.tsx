import { useState, type SyntheticEvent } from "react";
import { SITE_LANGUAGE } from "~/layout/site";
import type { OperationView } from "./model";
import type { TryItInput } from "./tryIt";

type Form = typeof import("./TryItForm").TryItForm;

/**
 * The try-it panel. Its form is only needed once someone opens the panel, so its code loads then
 * rather than with the page.
 */
export function TryIt({
  operation,
  input,
  onInput,
}: {
  operation: OperationView;
  input: TryItInput;
  onInput: (input: TryItInput) => void;
}) {
  const [Form, setForm] = useState<Form | null>(null);

  const load = (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (event.currentTarget.open && !Form) void import("./TryItForm").then((module) => setForm(() => module.TryItForm));
  };

  return (
    <details className="ref-try-it" lang={SITE_LANGUAGE} onToggle={load}>
      <summary>Prova la richiesta</summary>
      {Form ? (
        <Form operation={operation} input={input} onInput={onInput} />
      ) : (
        <p className="ref-try-pending">Il pannello richiede JavaScript.</p>
      )}
    </details>
  );
}
