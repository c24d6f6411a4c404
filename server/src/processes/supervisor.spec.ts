import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { freePort } from '../../test/redis-server.js';
import { waitFor } from '../../test/webhook-receiver.js';
import { API_NODE_FLAGS, apiNodeFlags } from './node-flags.js';
import { type ProcessSpec, Supervisor } from './supervisor.js';

const CHILD = join(process.cwd(), 'server/src/processes/fixtures/child.mjs');

/** The body of GET `path` on a new connection, or null when nothing answers. */
function get(port: number, path = '/'): Promise<string | null> {
  return new Promise((resolve) => {
    const call = request({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve(body));
    });
    call.on('error', () => resolve(null));
    call.end();
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the supervisor behind npm start', () => {
  let supervisor: Supervisor | undefined;
  const lines: string[] = [];

  afterEach(async () => {
    await supervisor?.stop();
    supervisor = undefined;
    lines.length = 0;
  });

  /** Waits until `count` different processes have answered on `port` (each with its handlers installed). */
  async function answeredBy(port: number, count: number): Promise<number[]> {
    const answered = new Set<number>();
    await waitFor(async () => {
      const pid = await get(port);
      if (pid) answered.add(Number(pid));
      return answered.size === count;
    }, `an answer from ${count} processes on the one port`);
    return [...answered].sort();
  }

  async function run(specs: Array<Partial<ProcessSpec> & { name: string; count: number }>, options = {}) {
    const port = await freePort();
    supervisor = new Supervisor(
      specs.map((spec) => ({ script: CHILD, ...spec, env: { ...process.env, PORT: String(port), ...spec.env } })),
      { restartDelayMs: 50, log: (line) => lines.push(line), ...options },
    );
    supervisor.start();
    return { port, supervisor };
  }

  it('runs API_PROCESSES processes on one port and WORKER_PROCESSES beside them', async () => {
    const { port, supervisor } = await run([
      { name: 'API', count: 3, shared: true },
      { name: 'worker', count: 2, env: { PORT: '0' } },
    ]);
    await waitFor(() => supervisor.pids('API').length === 3 && supervisor.pids('worker').length === 2, 'five processes');
    expect(await answeredBy(port, 3)).toEqual(supervisor.pids('API').sort());
  });

  it("starts every copy with its spec's Node.js flags, port-sharing or not", async () => {
    const own = await freePort();
    const { port, supervisor } = await run([
      { name: 'API', count: 2, shared: true, nodeFlags: API_NODE_FLAGS },
      { name: 'worker', count: 1, nodeFlags: ['--max-semi-space-size=32'], env: { PORT: String(own) } },
    ]);
    const pids = await answeredBy(port, 2);
    expect(pids).toEqual(supervisor.pids('API').sort());
    for (const _ of pids) expect(JSON.parse((await get(port, '/flags'))!)).toEqual(API_NODE_FLAGS);
    await waitFor(async () => (await get(own)) !== null, 'the worker answering on its own port');
    expect(JSON.parse((await get(own, '/flags'))!)).toEqual(['--max-semi-space-size=32']);
  });

  it("gives the API its Node.js flags unless the operator's NODE_OPTIONS sets them", () => {
    expect(API_NODE_FLAGS).toEqual(['--max-semi-space-size=64']);
    expect(apiNodeFlags(undefined)).toEqual(API_NODE_FLAGS);
    expect(apiNodeFlags('--max-old-space-size=4096 --enable-source-maps')).toEqual(API_NODE_FLAGS);
    expect(apiNodeFlags('--enable-source-maps --max-semi-space-size=16')).toEqual([]);
    expect(apiNodeFlags('--max_semi_space_size=16')).toEqual([]);
  });

  it('the Docker image and compose run the API with the same flags', () => {
    const command = JSON.stringify(['node', ...API_NODE_FLAGS, 'dist/server/src/main.js']).replace(/,/g, ', ');
    expect(readFileSync('docker/Dockerfile', 'utf8')).toContain(`CMD ${command}`);
    expect(readFileSync('docker/compose.yml', 'utf8')).toContain(`command: ${command}`);
  });

  it('starts a process that died again, and keeps the others running', async () => {
    const { port, supervisor } = await run([
      { name: 'API', count: 2, shared: true },
      { name: 'worker', count: 1, env: { PORT: '0' } },
    ]);
    const apis = await answeredBy(port, 2);
    const [worker] = supervisor.pids('worker');
    // One killed, one that stopped by itself: neither was asked to.
    const [first, second] = supervisor.pids('API');
    process.kill(first, 'SIGKILL');
    process.kill(second, 'SIGTERM');
    await waitFor(() => supervisor.pids('API').filter((pid) => !apis.includes(pid)).length === 2, 'two new API processes');
    expect(supervisor.pids('worker')).toEqual([worker]);
    expect(lines.sort()).toEqual(['API 1 stopped (SIGKILL); starting it again in 50 ms.', 'API 2 stopped (exit code 0); starting it again in 50 ms.']);
    await waitFor(async () => (await get(port)) !== null, 'the new API processes answering');
  });

  it('stops every process on stop() (SIGTERM), with exit code 0', async () => {
    const { supervisor } = await run([
      { name: 'API', count: 2, shared: true },
      { name: 'worker', count: 2, env: { PORT: '0' } },
    ]);
    await waitFor(() => supervisor.pids('API').length + supervisor.pids('worker').length === 4, 'four processes');
    const pids = [...supervisor.pids('API'), ...supervisor.pids('worker')];
    expect(await supervisor.stop()).toBe(0);
    expect(await supervisor.done).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('kills a process that does not stop within the time given, and says so with exit code 1', async () => {
    const { port, supervisor } = await run([{ name: 'worker', count: 1, env: { CHILD_MODE: 'stubborn' } }], { stopTimeoutMs: 300 });
    // Answering, it has its SIGTERM handler.
    await waitFor(async () => (await get(port)) !== null, 'the worker');
    const [pid] = supervisor.pids('worker');
    expect(await supervisor.stop()).toBe(1);
    expect(alive(pid)).toBe(false);
    expect(lines.join('\n')).toContain('were killed');
  });

  it('gives up with exit code 1 when processes keep dying, instead of restarting them for ever', async () => {
    const { supervisor } = await run([{ name: 'worker', count: 1, env: { PORT: '0', CHILD_MODE: 'crash' } }], { crashLimit: 3 });
    expect(await supervisor.done).toBe(1);
    expect(lines.filter((line) => line.includes('starting it again'))).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/worker 1 stopped \(exit code 3\); processes stopped 4 times within 60 s, stopping everything\./);
  });
});
