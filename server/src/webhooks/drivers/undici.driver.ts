import { Agent, request } from 'undici';
import type { Environment } from '../../config/config.js';
import { RESPONSE_EXCERPT_BYTES } from '../../deliveries/delivery-sender.js';
import { guardedLookup, type Reach } from '../url-guard.js';
import type { WebhookAnswer, WebhookHttp } from '../webhook-http.port.js';

/** Past this much, an answer's body is not read to the end: the connection is dropped instead of reused. */
const BODY_DRAIN_LIMIT = 64 * 1024;

/**
 * undici over pooled keep-alive connections, one pool per reach (public receivers; in development, loopback ones),
 * each opening its sockets through the SSRF guard's lookup: a socket only ever reaches an address that was checked
 * when it was opened. Connecting, the headers and the body are each bounded by the webhook timeout.
 */
export class UndiciWebhookHttp implements WebhookHttp {
  private readonly agents: Record<Reach, Agent>;

  constructor(environment: Environment, timeoutMs: number) {
    const agent = (reach: Reach) =>
      new Agent({
        connect: { lookup: guardedLookup(environment, reach), timeout: timeoutMs },
        connections: 64,
        keepAliveTimeout: 30_000,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    this.agents = { public: agent('public'), loopback: agent('loopback') };
  }

  async post(url: URL, reach: Reach, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<WebhookAnswer> {
    const response = await request(url, { method: 'POST', dispatcher: this.agents[reach], headers, body, signal });
    const excerpt = await readExcerpt(response.body);
    return { status: response.statusCode, headers: response.headers, excerpt };
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.agents).map((agent) => agent.close()));
  }
}

/** The first 1 KB of a body (whole characters), read to the end (so the connection can be reused) unless it is large. */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (kept < RESPONSE_EXCERPT_BYTES) {
      chunks.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept));
      kept += Math.min(chunk.length, RESPONSE_EXCERPT_BYTES - kept);
    }
    if (read > BODY_DRAIN_LIMIT) {
      body.destroy();
      break;
    }
  }
  // Streaming decode drops a character the 1 KB cut in half, rather than ending the excerpt with U+FFFD.
  return kept ? new TextDecoder().decode(Buffer.concat(chunks), { stream: true }) : null;
}
