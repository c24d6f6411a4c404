import { useState, type SyntheticEvent } from "react";
import type { OperationView } from "./model";

type Form = typeof import("./TryItForm").TryItForm;

/**
 * The try-it panel. Its form is only needed once someone opens the panel, so its code loads then
 * rather than with the page.
 */
export function TryIt({ operation }: { operation: OperationView }) {
  const [Form, setForm] = useState<Form | null>(null);

  const load = (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (event.currentTarget.open && !Form) void import("./TryItForm").then((module) => setForm(() => module.TryItForm));
  };

  return (
    <details className="ref-try-it" onToggle={load}>
      <summary>Prova la richiesta</summary>
      {Form ? <Form operation={operation} /> : <p className="ref-try-pending">Il pannello richiede JavaScript.</p>}
    </details>
  );
}
