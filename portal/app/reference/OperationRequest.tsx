import { useMemo, useState } from "react";
import { CodeSamples } from "./CodeSamples";
import type { OperationView } from "./model";
import { ResponseExamples } from "./ResponseExamples";
import { initialInput, requestExample, withCompany, type TryItInput } from "./tryIt";
import { useTryItSettings } from "./tryItSettings";
import { TryIt } from "./TryIt";

/**
 * An operation's code samples and try-it panel, showing one request: what is typed in the panel (and the key and
 * company remembered for the whole reference) is what the samples send, so a copied sample runs as it is.
 */
export function OperationRequest({ operation }: { operation: OperationView }) {
  const { apiKey, companyId } = useTryItSettings();
  const [typed, setTyped] = useState<TryItInput>(() => initialInput(operation));
  const input = useMemo(() => withCompany(typed, companyId), [typed, companyId]);
  const example = useMemo(() => requestExample(operation, input), [operation, input]);
  return (
    <>
      <CodeSamples example={example} apiKey={apiKey || undefined} />
      <ResponseExamples responses={operation.responses} />
      <TryIt operation={operation} input={input} onInput={setTyped} />
    </>
  );
}
