import { type ChildProcess, spawn } from 'node:child_process';
import cluster from 'node:cluster';
import { createInterface } from 'node:readline';

/** How long stopping processes may take before they are killed: longer than the API's SHUTDOWN_GRACE_MS (25 s by default). */
export const STOP_TIMEOUT_MS = 35_000;

/** Processes of one kind that a supervisor keeps running. */
export interface ProcessSpec {
  /** How the supervisor names them: `API`, `worker`, `portal`. */
  name: string;
  /** A Node.js script (relative to `cwd`), run by the same Node.js as the supervisor. */
  script: string;
  args?: string[];
  /** Node.js flags the copies run with (before the script): API_NODE_FLAGS for the API. */
  nodeFlags?: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  count: number;
  /**
   * The copies share one listening port through node:cluster (the supervisor's process hands connections out in turn):
   * at most one spec of a supervisor.
   */
  shared?: boolean;
  /** Lines of standard output not shown (a process's chatter); the others, a warning or a stack, still are. */
  quiet?: RegExp;
}

export interface SupervisorOptions {
  /** Wait before a process that died is started again. */
  restartDelayMs?: number;
  /** More deaths than this within `crashWindowMs` stop everything with exit code 1: restarting does not help. */
  crashLimit?: number;
  crashWindowMs?: number;
  /** How long processes may take to stop after SIGTERM before they are killed. */
  stopTimeoutMs?: number;
  log?: (line: string) => void;
}

interface Running {
  spec: ProcessSpec;
  index: number;
  child: ChildProcess;
}

/**
 * Runs `count` copies of each spec and keeps them running: one that dies is started again after `restartDelayMs`,
 * unless processes die more than `crashLimit` times within `crashWindowMs` (a bad configuration, a database that
 * refuses): then everything stops and `done` is 1. `stop()` (on SIGTERM or SIGINT) sends SIGTERM to every process and
 * waits for them, killing those still running after `stopTimeoutMs`; `done` is then 0, or 1 when one had to be killed.
 */
export class Supervisor {
  private readonly running = new Set<Running>();
  private readonly deaths: number[] = [];
  private readonly restarts = new Set<NodeJS.Timeout>();
  private stopping?: Promise<number>;
  private resolveDone!: (code: number) => void;
  readonly done = new Promise<number>((resolve) => (this.resolveDone = resolve));
  private readonly options: Required<SupervisorOptions>;

  constructor(
    private readonly specs: ProcessSpec[],
    options: SupervisorOptions = {},
  ) {
    if (specs.filter((spec) => spec.shared).length > 1) throw new Error('only one kind of process can share a port');
    this.options = {
      restartDelayMs: 1000,
      crashLimit: 5,
      crashWindowMs: 60_000,
      stopTimeoutMs: STOP_TIMEOUT_MS,
      log: (line) => console.error(`flusso: ${line}`),
      ...options,
    };
  }

  start(): void {
    for (const spec of this.specs) for (let index = 1; index <= spec.count; index++) this.launch(spec, index);
  }

  /** The process ids running now, by spec name. */
  pids(name: string): number[] {
    return [...this.running].filter((r) => r.spec.name === name && r.child.pid !== undefined).map((r) => r.child.pid!);
  }

  private launch(spec: ProcessSpec, index: number): void {
    const child = spec.shared
      ? this.fork(spec)
      : spawn(process.execPath, [...(spec.nodeFlags ?? []), spec.script, ...(spec.args ?? [])], {
          env: spec.env,
          cwd: spec.cwd,
          stdio: ['ignore', spec.quiet ? 'pipe' : 'inherit', 'inherit'],
        });
    const quiet = spec.quiet;
    if (quiet && child.stdout) {
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (!quiet.test(line)) console.log(line);
      });
    }
    const entry = { spec, index, child };
    this.running.add(entry);
    child.once('exit', (code, signal) => {
      this.running.delete(entry);
      if (!this.stopping) this.died(entry, signal ?? `exit code ${code}`);
    });
  }

  /** A copy of a port-sharing spec: a cluster worker, whose `listen` the supervisor's process serves. */
  private fork(spec: ProcessSpec): ChildProcess {
    cluster.setupPrimary({ exec: spec.script, args: spec.args ?? [], cwd: spec.cwd, execArgv: [...(spec.nodeFlags ?? [])], silent: false });
    const worker = cluster.fork(spec.env);
    // Its IPC channel breaks (EPIPE) when it exits while this process still answers it, its listen on a quick stop for
    // one: its exit is what counts (launch), and an 'error' nobody listens to would end the supervisor.
    worker.on('error', (error: Error) => {
      if (!this.stopping) this.options.log(`${spec.name}: ${error.message}`);
    });
    return worker.process;
  }

  private died({ spec, index }: Running, how: string): void {
    const now = Date.now();
    this.deaths.push(now);
    while (this.deaths[0] < now - this.options.crashWindowMs) this.deaths.shift();
    if (this.deaths.length > this.options.crashLimit) {
      this.options.log(
        `${spec.name} ${index} stopped (${how}); processes stopped ${this.deaths.length} times within ${this.options.crashWindowMs / 1000} s, stopping everything.`,
      );
      void this.stop(1);
      return;
    }
    this.options.log(`${spec.name} ${index} stopped (${how}); starting it again in ${this.options.restartDelayMs} ms.`);
    const timer = setTimeout(() => {
      this.restarts.delete(timer);
      this.launch(spec, index);
    }, this.options.restartDelayMs);
    this.restarts.add(timer);
  }

  /** Stops every process (SIGTERM, then SIGKILL after `stopTimeoutMs`); resolves with the exit code, as `done` does. */
  stop(code = 0): Promise<number> {
    this.stopping ??= (async () => {
      for (const timer of this.restarts) clearTimeout(timer);
      const children = [...this.running].map((r) => r.child).filter((child) => child.exitCode === null && child.signalCode === null);
      const exited = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
      for (const child of children) child.kill('SIGTERM');
      let killed = false;
      const deadline = setTimeout(() => {
        for (const child of children) {
          if (child.exitCode === null && child.signalCode === null) {
            killed = true;
            child.kill('SIGKILL');
          }
        }
      }, this.options.stopTimeoutMs);
      await Promise.all(exited);
      clearTimeout(deadline);
      if (killed) this.options.log(`processes still running ${this.options.stopTimeoutMs / 1000} s after SIGTERM were killed.`);
      const result = killed ? 1 : code;
      this.resolveDone(result);
      return result;
    })();
    return this.stopping;
  }
}
