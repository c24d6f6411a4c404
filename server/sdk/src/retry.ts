/** How a client retries: bounded, honouring the API's Retry-After, backing off exponentially without it. */
export interface RetryPolicy {
  /** Retries after the first attempt (0: none). Default 3. */
  maxRetries: number;
  /** First backoff without a Retry-After; doubles on each retry, with jitter. Default 500 ms. */
  initialDelayMs: number;
  /** Longest wait between two attempts. A Retry-After beyond it is not waited for: the answer is returned. Default 60 s. */
  maxDelayMs: number;
  /** How long one attempt may take before it is abandoned (and retried when that is safe). Default 60 s. */
  timeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, initialDelayMs: 500, maxDelayMs: 60_000, timeoutMs: 60_000 };

/** What a client tells `onRetry` before it waits and sends the request again. */
export interface RetryEvent {
  /** The attempt that failed, from 1. */
  attempt: number;
  method: string;
  url: string;
  /** The answer's status; undefined when the attempt failed without one (network error, timeout). */
  status?: number;
  /** The answer's Retry-After, in milliseconds, when it sent one. */
  retryAfterMs?: number;
  error?: unknown;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** The request's Idempotency-Key: the same on every attempt of a POST. */
  idempotencyKey: string | null;
}

/** Retry-After in milliseconds (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Whether an answer means "the request did not run, send it again": 429 (rate limit, or the company's share of the
 * service), 503 (unavailable for a moment) and 409 idempotency_key_in_progress (the first attempt of this key is still
 * running; the retry gets its answer).
 */
async function retryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status === 503) return true;
  if (response.status !== 409) return false;
  const body = await response
    .clone()
    .json()
    .catch(() => undefined);
  return (body as { errors?: Array<{ code?: string }> } | undefined)?.errors?.[0]?.code === 'idempotency_key_in_progress';
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const abort = () => (clearTimeout(timer), reject(signal.reason));
    const timer = setTimeout(() => (signal.removeEventListener('abort', abort), resolve()), ms);
    signal.addEventListener('abort', abort, { once: true });
  });

/**
 * A `fetch` that sends each attempt of `request` afresh (a clone, the same headers: one Idempotency-Key for every
 * attempt of a POST) until an answer that is not retryable, or the retries run out. A failure without an answer
 * (network, timeout) is retried only where sending twice cannot do twice: a GET, or a request with an Idempotency-Key.
 */
export function retryingFetch(
  policy: RetryPolicy,
  fetchImpl: (request: Request) => Promise<Response>,
  onRetry?: (event: RetryEvent) => void,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const idempotencyKey = request.headers.get('idempotency-key');
    const safeWithoutAnswer = request.method === 'GET' || request.method === 'HEAD' || idempotencyKey !== null;
    for (let attempt = 1; ; attempt++) {
      const last = attempt > policy.maxRetries;
      const backoff = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
      // Half the backoff plus up to as much again at random: clients refused together do not come back together.
      const jittered = Math.round(backoff / 2 + (Math.random() * backoff) / 2);
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(policy.timeoutMs)]);
      let response: Response;
      try {
        response = await fetchImpl(new Request(last ? request : request.clone(), { signal }));
      } catch (error) {
        if (last || !safeWithoutAnswer || request.signal.aborted) throw error;
        onRetry?.({ attempt, method: request.method, url: request.url, error, delayMs: jittered, idempotencyKey });
        await sleep(jittered, request.signal);
        continue;
      }
      if (last || !(await retryable(response))) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined && asked > policy.maxDelayMs) return response;
      const delayMs = asked ?? jittered;
      onRetry?.({ attempt, method: request.method, url: request.url, status: response.status, retryAfterMs: asked, delayMs, idempotencyKey });
      // The answer is not read: let its connection go back to the pool.
      await response.body?.cancel();
      await sleep(delayMs, request.signal);
    }
  };
}
