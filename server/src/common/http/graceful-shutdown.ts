import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/**
 * Nest closes the database before the HTTP server on shutdown; a request still arriving in between would fail. This
 * stops accepting connections first and lets the requests in flight finish, so a rolling deploy drops none.
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
