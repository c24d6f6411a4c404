import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './redis-server.js';

const run = promisify(execFile);

/** How long a silent master takes to be marked failed: short, so a test sees the cluster react within seconds. */
const NODE_TIMEOUT_MS = 1000;

async function clusterState(port: number): Promise<string> {
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    const info = String(await probe.cluster('INFO'));
    return /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown';
  } catch {
    return 'down';
  } finally {
    probe.disconnect();
  }
}

/**
 * A Redis Cluster of the test's own: `masters` local `redis-server --cluster-enabled yes` processes on free ports, no
 * replicas, no persistence, their slots assigned by `redis-cli --cluster create`. `kill` loses a master as a crash
 * would; `close` stops every node (call it in afterAll, it is safe after a failed start).
 */
export class RedisCluster {
  private readonly processes: ChildProcess[] = [];
  private readonly dir = mkdtempSync(join(tmpdir(), 'flusso-cluster-'));
  readonly ports: number[] = [];

  /** REDIS_CLUSTER_NODES for this cluster. */
  get nodes(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(',');
  }

  static async start(masters = 3): Promise<RedisCluster> {
    const cluster = new RedisCluster();
    try {
      for (let i = 0; i < masters; i++) await cluster.startNode(i);
      await run('redis-cli', ['--cluster', 'create', ...cluster.ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
      await cluster.waitFor('ok');
      return cluster;
    } catch (error) {
      await cluster.close();
      throw error;
    }
  }

  private readonly dirs: string[] = [];

  private async startNode(i: number): Promise<void> {
    this.ports[i] ??= await freePort();
    this.dirs[i] ??= mkdtempSync(join(this.dir, `${i}-`));
    const [port, nodeDir] = [this.ports[i], this.dirs[i]];
    // prettier-ignore
    const child = spawn('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', join(nodeDir, 'nodes.conf'),
      '--cluster-node-timeout', String(NODE_TIMEOUT_MS), '--dir', nodeDir, '--save', '', '--appendonly', 'no',
    ], { stdio: 'ignore' });
    this.processes[i] = child;
    for (let attempt = 0; (await clusterState(port)) === 'down'; attempt++) {
      if (attempt > 100 || child.exitCode !== null) throw new Error(`redis-server on port ${port} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Starts master `i` again after `kill`: empty, with its slots (its nodes.conf), as a restarted node rejoins. */
  async restart(i: number): Promise<void> {
    await this.startNode(i);
    await this.waitFor('ok');
  }

  /** Waits until every live node reports `state` (cluster_state:ok, or fail once a master is lost). */
  async waitFor(state: 'ok' | 'fail'): Promise<void> {
    const live = this.ports.filter((_, i) => this.processes[i].exitCode === null && this.processes[i].signalCode === null);
    for (let attempt = 0; ; attempt++) {
      const states = await Promise.all(live.map(clusterState));
      if (states.every((s) => s === state)) return;
      if (attempt > 300) throw new Error(`cluster_state is ${states.join(', ')}, not ${state}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The keys matching `pattern` on each master, in the order of `ports`. */
  async keys(pattern: string): Promise<string[][]> {
    return Promise.all(
      this.ports.map(async (port) => {
        const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0 });
        try {
          return await node.keys(pattern);
        } finally {
          node.disconnect();
        }
      }),
    );
  }

  /** The number of keys each master holds, in the order of `ports`. */
  async keysPerMaster(): Promise<number[]> {
    return Promise.all(
      this.ports.map(async (port) => {
        const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0 });
        try {
          return await node.dbsize();
        } finally {
          node.disconnect();
        }
      }),
    );
  }

  /** Kills master `i` at once (SIGKILL), as a crash would. */
  async kill(i: number): Promise<void> {
    const child = this.processes[i];
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async close(): Promise<void> {
    for (let i = 0; i < this.processes.length; i++) await this.kill(i);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
