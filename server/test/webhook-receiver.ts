import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the event carries
  body: any;
  at: number;
  /** What the receiver answered. */
  status: number;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

/**
 * A real webhook receiver (node:http) that verifies every request with the `standardwebhooks` package and with
 * `svix` against the secrets it is given, refuses (400) what does not verify, and records what it accepted.
 */
export class Receiver {
  readonly received: Received[] = [];
  readonly refused: Array<{ headers: IncomingHttpHeaders; raw: string; reason: string }> = [];
  secrets: string[] = [];
  answer: (request: Received, index: number) => Answer = () => ({ status: 204 });
  private readonly sockets = new Set<import('node:net').Socket>();

  private constructor(private readonly server: Server) {}

  static async start(path = '/hooks/flusso'): Promise<Receiver & { url: string }> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => void receiver.handle(request.headers, Buffer.concat(chunks).toString('utf8'), response));
    });
    server.on('connection', (socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return Object.assign(receiver, { url: `http://127.0.0.1:${port}${path}` });
  }

  private verify(headers: IncomingHttpHeaders, raw: string): string | null {
    const wanted = {
      'webhook-id': headers['webhook-id'],
      'webhook-timestamp': headers['webhook-timestamp'],
      'webhook-signature': headers['webhook-signature'],
    };
    for (const secret of this.secrets) {
      try {
        new StandardWebhook(secret).verify(raw, wanted as Record<string, string>);
        new SvixWebhook(secret).verify(raw, wanted as Record<string, string>);
        return null;
      } catch {
        // try the next secret
      }
    }
    return 'no secret verifies the signature';
  }

  private async handle(headers: IncomingHttpHeaders, raw: string, response: ServerResponse): Promise<void> {
    const problem = this.verify(headers, raw);
    if (problem) {
      this.refused.push({ headers, raw, reason: problem });
      response.writeHead(400).end(problem);
      return;
    }
    const entry: Received = { headers, raw, body: JSON.parse(raw), at: Date.now(), status: 0 };
    const answer = this.answer(entry, this.received.length);
    entry.status = answer.status;
    this.received.push(entry);
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (!response.destroyed) response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Waits until `condition` holds, checking every 25 ms; fails with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
