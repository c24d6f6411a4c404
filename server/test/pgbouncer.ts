import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { baseUrl } from './database.js';
import { freePort } from './redis-server.js';

const BINARY = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'].find((path) => existsSync(path));

/**
 * A PgBouncer of the test's own, in front of the test PostgreSQL, on a free port, in transaction mode: each
 * transaction may run on another server connection, and nothing of a session (a SET, a named statement, a LISTEN, an
 * advisory lock) outlives it. `serverConnections` per database and user is kept below the clients' pool, so two
 * clients do share a server connection. No `ignore_startup_parameters`: Flusso must send none that PgBouncer refuses.
 */
export class PgBouncer {
  private constructor(
    private readonly process: ChildProcess,
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** `connectQuery`: what PgBouncer runs on each server connection it opens (session defaults, as an operator sets them). */
  static async start(options: { serverConnections?: number; connectQuery?: string } = {}): Promise<PgBouncer> {
    if (!BINARY)
      throw new Error('pgbouncer is not installed: `apt-get install -y pgbouncer` (.ci/run installs it); the PgBouncer suite cannot run without it.');
    const target = new URL(baseUrl());
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'flusso-pgbouncer-'));
    // PgBouncer refuses to run as root; as root it is started as `postgres`, which must be able to write its log here.
    const asRoot = process.getuid?.() === 0;
    const postgres = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
    if (asRoot) chownSync(dir, postgres('-u'), postgres('-g'));
    const config = [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432} user=${decodeURIComponent(target.username || 'postgres')}` +
        (options.connectQuery ? ` connect_query='${options.connectQuery}'` : ''),
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${options.serverConnections ?? 3}`,
      'max_client_conn = 500',
      `admin_users = ${decodeURIComponent(target.username || 'postgres')}`,
      `logfile = ${join(dir, 'pgbouncer.log')}`,
    ].join('\n');
    writeFileSync(join(dir, 'pgbouncer.ini'), `${config}\n`);
    const child = spawn(BINARY, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    const bouncer = new PgBouncer(child, dir, port);
    for (let attempt = 0; ; attempt++) {
      try {
        await bouncer.admin('SHOW VERSION');
        return bouncer;
      } catch (error) {
        if (attempt > 100 || child.exitCode !== null) {
          await bouncer.stop();
          throw new Error(`pgbouncer did not start (${(error as Error).message}): ${bouncer.log()}`, { cause: error });
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** `databaseUrl` (PostgreSQL itself) reached through this PgBouncer. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** A command of PgBouncer's admin console (`SHOW POOLS`, `SHOW CLIENTS` …), its rows. */
  async admin(command: string): Promise<Array<Record<string, unknown>>> {
    const client = new pg.Client({ connectionString: this.url(`${baseUrl().replace(/\/[^/]*$/, '')}/pgbouncer`) });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(command)).rows;
    } finally {
      await client.end();
    }
  }

  log(): string {
    try {
      return readFileSync(join(this.dir, 'pgbouncer.log'), 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** Stops PgBouncer at once (its clients are cut off) and removes its folder. */
  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      const exited = new Promise((resolve) => this.process.once('exit', resolve));
      this.process.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
