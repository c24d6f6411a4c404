import { Await, useAsyncError, useRevalidator } from "@remix-run/react";
import { Suspense, type ReactNode } from "react";
import { usePastDelay } from "~/behaviour/pastDelay";
import { errorMessage } from "./errorMessage";

/** A centred spinner, shown only once loading has lasted past the loader delay. */
export function Loader() {
  const pastDelay = usePastDelay(true);
  if (!pastDelay) return null;
  return (
    <div className="loader" role="status">
      <span className="spinner" aria-hidden />
      <span className="sr-only">Caricamento…</span>
    </div>
  );
}

/** The failure box: what went wrong, in red, and a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="load-error" role="alert">
      <p>{errorMessage(error)}</p>
      <button type="button" className="button button-danger" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

function AwaitError() {
  const error = useAsyncError();
  const revalidator = useRevalidator();
  return <LoadError error={error} onRetry={() => revalidator.revalidate()} />;
}

/**
 * Renders `children` with the value of a promise from a loader: spinner while it is
 * pending, the failure box if it rejects (Retry runs the loaders again).
 */
export function LoadOnDemand<T>({ resolve, children }: { resolve: Promise<T>; children: (value: T) => ReactNode }) {
  return (
    <Suspense fallback={<Loader />}>
      <Await resolve={resolve} errorElement={<AwaitError />}>
        {(value) => children(value as T)}
      </Await>
    </Suspense>
  );
}
