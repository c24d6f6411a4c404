import { useMemo, useState } from "react";
import { CodeSamples } from "./CodeSamples";
import type { OperationView } from "./model";
import { ResponseExamples } from "./ResponseExamples";
import { initialInput, requestExample, withCompany, withMediaType, type TryItInput } from "./tryIt";
import { useStartingCompany, useTryItSettings } from "./tryItSettings";
import { TryIt } from "./TryIt";

/**
 * An operation's code samples and try-it panel, showing one request: what is typed in the panel (and the key and
 * company remembered for the whole reference, else the development host's demo company) is what the samples send, so a
 * copied sample runs as it is. A body
 * that may be sent as several media types (an invoice as JSON or as XML) gets a switch: the samples and the panel
 * then send the chosen type, with its own example.
 */
export function OperationRequest({ operation }: { operation: OperationView }) {
  const { apiKey } = useTryItSettings();
  const companyId = useStartingCompany();
  const [typed, setTyped] = useState<TryItInput>(() => initialInput(operation));
  const input = useMemo(() => withCompany(typed, companyId), [typed, companyId]);
  const example = useMemo(() => requestExample(operation, input), [operation, input]);
  const mediaTypes = operation.requestBody?.mediaTypes;
  return (
    <>
      {mediaTypes ? (
        <MediaTypeSwitch
          types={mediaTypes.map((media) => media.contentType)}
          selected={input.contentType}
          onSelect={(contentType) => setTyped((current) => withMediaType(operation, current, contentType))}
        />
      ) : null}
      <CodeSamples example={example} apiKey={apiKey || undefined} />
      <ResponseExamples responses={operation.responses} />
      <TryIt operation={operation} input={input} onInput={setTyped} />
    </>
  );
}

function MediaTypeSwitch({ types, selected, onSelect }: { types: string[]; selected?: string; onSelect: (type: string) => void }) {
  return (
    <div className="ref-media-switch" role="group" aria-label="Formato del corpo">
      <span className="ref-media-switch-title">Corpo</span>
      {types.map((type) => (
        <button key={type} type="button" aria-pressed={type === selected} onClick={() => onSelect(type)}>
          {type}
        </button>
      ))}
    </div>
  );
}
