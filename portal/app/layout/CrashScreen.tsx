import { useEffect } from "react";
import { errorMessage } from "./errorMessage";
import { Main } from "./Main";

export const CRASH_TITLE = "Page Error";

/** The error and each of its `cause`s, outermost first. */
export function errorCauses(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 10 && !chain.includes(current)) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

export function CrashScreen({ error, onTryAgain }: { error: unknown; onTryAgain: () => void }) {
  // A render crash does not go through the route meta: set the title here, and put it back after.
  useEffect(() => {
    const previous = document.title;
    document.title = CRASH_TITLE;
    return () => {
      document.title = previous;
    };
  }, []);

  const [first, ...causes] = errorCauses(error);
  return (
    <Main className="crash-screen">
      <h1>This page crashed.</h1>
      <button type="button" className="button button-primary" onClick={onTryAgain}>
        Try again
      </button>
      <div className="crash-details">
        <p className="crash-message">{errorMessage(first)}</p>
        {causes.map((cause, index) => (
          <p key={index} className="crash-cause">
            Cause: {errorMessage(cause)}
          </p>
        ))}
      </div>
    </Main>
  );
}
