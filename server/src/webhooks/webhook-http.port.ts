import type { Reach } from './url-guard.js';

/** What came back from a receiver: its status, headers and the first 1 KB of its body. */
export interface WebhookAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  excerpt: string | null;
}

/**
 * The webhook channel's HTTP client (the port; the undici driver in `drivers/`): POSTs a signed body, never follows a
 * redirect, and dials only addresses the SSRF guard (url-guard.ts) allows for `reach`, checked at connect time. It
 * throws what the connection or the guard threw (a LoopbackAddressError inside when a public-reach dial found
 * loopback), and a TimeoutError or AbortError when `signal` ends the request.
 */
export interface WebhookHttp {
  post(url: URL, reach: Reach, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<WebhookAnswer>;
  close(): Promise<void>;
}

/** The injection token of the webhook HTTP client. */
export const WEBHOOK_HTTP = Symbol('WEBHOOK_HTTP');
