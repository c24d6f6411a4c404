import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import { FlussoError } from './errors.js';
import { DEFAULT_RETRY_POLICY, retryingFetch, type RetryEvent, type RetryPolicy } from './retry.js';

/** A file sent as a request body (an invoice's XML or signed .p7m, an F24's PDF or image). */
export type RawBody = string | Uint8Array | ArrayBuffer | Blob;

export interface FlussoOptions extends Partial<RetryPolicy> {
  /** The API key (`fl_test_…` for development, `fl_live_…` for production). */
  apiKey: string;
  /** The API's root, with `/api/v1`. Default: the document's first server (development). */
  baseUrl?: string;
  /** Called before each retry, with why and how long the client waits: for logging and metrics. */
  onRetry?: (event: RetryEvent) => void;
  /** The `fetch` to send with (default: the global one), for a proxy agent or instrumentation. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (an `X-Request-Id` of yours is better given per request). */
  headers?: Record<string, string>;
}

/** What every method takes last. */
export interface RequestOptions {
  /** The POST's Idempotency-Key; one is generated when not given. The same key goes with every retry. */
  idempotencyKey?: string;
  /** Headers of this request only, such as `X-Request-Id`. */
  headers?: Record<string, string>;
  /** Abandons the request, and its retries. */
  signal?: AbortSignal;
}

/** What a generated method hands the core: the operation's route and what to send. */
export interface CallSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  pathParams?: Record<string, string>;
  query?: object;
  body?: unknown;
  contentType?: string;
  /** The media type of a raw body when the caller names none (the operation's first). */
  defaultContentType?: string;
  parseAs?: 'arrayBuffer' | 'none';
}

interface PageBody<T> {
  data: T[];
  page: { cursor: string | null };
}

/**
 * A list call: `await` it for the first page (the API's list body, `data` and `page`), or `for await` over it for
 * every item of every page, each page asked for with the cursor of the one before. Nothing is sent before either.
 */
export class ListCall<P extends PageBody<T>, T> implements PromiseLike<P>, AsyncIterable<T> {
  private first?: Promise<P>;

  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<P>) {}

  then<A = P, B = never>(onFulfilled?: ((page: P) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null) {
    this.first ??= this.fetchPage(undefined);
    return this.first.then(onFulfilled, onRejected);
  }

  /** Every page in turn, the first included; stops after the page whose `page.cursor` is null. */
  async *pages(): AsyncGenerator<P> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchPage(cursor);
      yield page;
      cursor = page.page.cursor ?? undefined;
    } while (cursor);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item of every page, in an array (for lists known to be short). */
  async all(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}

/**
 * The hand-written half of the client: openapi-fetch builds each request (path, query, body) and parses the answer;
 * this adds the key, the retries, one Idempotency-Key per POST, the API's list style and its errors as FlussoError.
 */
export class FlussoCore {
  /** openapi-fetch untyped: each generated method carries its operation's types, so the core needs none. */
  private readonly client: {
    request(method: string, path: string, init: object): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  };

  constructor(options: FlussoOptions & { baseUrl: string }) {
    if (!options.apiKey) throw new TypeError('Flusso needs an API key (apiKey).');
    const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
    for (const name of Object.keys(DEFAULT_RETRY_POLICY) as Array<keyof RetryPolicy>) {
      const value = options[name];
      if (value !== undefined) {
        if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a number of 0 or more, got ${value}`);
        policy[name] = value;
      }
    }
    this.client = createClient<Record<string, never>>({
      baseUrl: options.baseUrl,
      headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch(policy, options.fetch ?? ((request) => fetch(request)), options.onRetry),
      // Lists in the query are comma-separated (style form, explode false), as every list parameter of the document.
      querySerializer: { array: { style: 'form', explode: false } },
      // A file goes as it is; anything else is JSON.
      bodySerializer: (body: unknown) => (isRaw(body) ? body : JSON.stringify(body)),
    }) as unknown as FlussoCore['client'];
  }

  /** Sends one operation's request and returns its success body, or throws FlussoError. */
  protected async call<T>(spec: CallSpec, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { ...options.headers };
    if (spec.method === 'post') headers['Idempotency-Key'] = options.idempotencyKey ?? randomUUID();
    if (spec.body !== undefined && isRaw(spec.body)) headers['Content-Type'] = spec.contentType ?? spec.defaultContentType ?? 'application/octet-stream';
    const { data, error, response } = await this.client.request(spec.method, spec.path, {
      params: { path: spec.pathParams, query: spec.query as Record<string, unknown> | undefined },
      body: spec.body,
      headers,
      signal: options.signal,
      parseAs: spec.parseAs === 'arrayBuffer' ? 'arrayBuffer' : 'json',
    });
    if (!response.ok) throw new FlussoError(response.status, FlussoError.body(error), response.headers);
    return (spec.parseAs === 'none' ? undefined : data) as T;
  }

  /** A list operation: its pages on demand (ListCall), the cursor put in the query the caller gave. */
  protected list<P extends PageBody<T>, T>(spec: CallSpec, options?: RequestOptions): ListCall<P, T> {
    return new ListCall<P, T>((cursor) => this.call<P>({ ...spec, query: cursor ? { ...spec.query, cursor } : spec.query }, options));
  }
}

function isRaw(body: unknown): body is RawBody {
  return typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer || body instanceof Blob;
}
