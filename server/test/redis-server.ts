import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** A port nobody listens on at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A Redis of the test's own (never the shared one) that the test can stop and start again, as a crash and a restart
 * would: empty (no persistence, the default), or with its data (`persistent`: an append-only file synced on every
 * write, in a temporary folder).
 */
export class PrivateRedis {
  private process?: ChildProcess;
  private readonly dir?: string;

  private constructor(
    readonly port: number,
    persistent: boolean,
  ) {
    if (persistent) this.dir = mkdtempSync(join(tmpdir(), 'flusso-redis-'));
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(options: { persistent?: boolean } = {}): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), options.persistent ?? false);
    await redis.restart();
    return redis;
  }

  /** Starts the server again on the same port: with its data when persistent, otherwise empty. */
  async restart(): Promise<void> {
    if (this.process) await this.stop();
    const persistence = this.dir ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.dir] : ['--appendonly', 'no'];
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence], { stdio: 'ignore' });
    this.process = child;
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await probe.connect();
          await probe.ping();
          return;
        } catch (error) {
          if (attempt > 100 || child.exitCode !== null) throw error;
          probe.disconnect();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      probe.disconnect();
    }
  }

  /** Kills the server at once, as a crash would. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async close(): Promise<void> {
    await this.stop();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
