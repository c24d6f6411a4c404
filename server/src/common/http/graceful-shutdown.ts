import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';

/** How often a stopping server closes the keep-alive connections whose request has ended since. */
const IDLE_SWEEP_MS = 100;

/**
 * Nest closes the database before the HTTP server on shutdown; a request still arriving in between would fail. This
 * stops accepting connections first and lets the requests in flight finish, so a rolling deploy drops none.
 *
 * Node's `server.close()` waits for every connection to end, and closes only those idle at that moment: a keep-alive
 * connection whose request ends later stays open until its client leaves, and one whose client stopped reading a
 * response (or trickles a body) holds the process until it is killed, its shutdown undone. So connections are closed
 * as soon as their request ends, and those still busy SHUTDOWN_GRACE_MS after the stop began are closed anyway. Every
 * answer not yet begun when the stop began says `Connection: close`, so that no client sends another request on a
 * connection about to close (a race that costs a reset).
 */
@Injectable()
export class GracefulShutdown implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(GracefulShutdown.name);
  /** The open connections: their answer in progress, if any, is `_httpMessage` (node's own, as http-terminator reads it). */
  private readonly connections = new Set<Socket & { _httpMessage?: ServerResponse }>();
  /** Whether the stop has begun: readiness says so (health.ts). */
  stopping = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.server()?.on('connection', (socket: Socket) => {
      this.connections.add(socket);
      socket.once('close', () => this.connections.delete(socket));
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const server = this.server();
    if (!server?.listening) return;
    for (const { _httpMessage: answer } of this.connections) if (answer && !answer.headersSent) answer.shouldKeepAlive = false;
    server.prependListener('request', (_request: IncomingMessage, answer: ServerResponse) => (answer.shouldKeepAlive = false));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const graceOver = setTimeout(() => {
      this.logger.warn(`connections still busy ${this.config.shutdownGraceMs} ms after the stop began (SHUTDOWN_GRACE_MS) are closed`);
      server.closeAllConnections();
    }, this.config.shutdownGraceMs);
    try {
      await closed;
    } finally {
      clearInterval(sweep);
      clearTimeout(graceOver);
    }
  }

  private server(): Server | undefined {
    return this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
  }
}
