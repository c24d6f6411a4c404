import { fileURLToPath } from 'node:url';
import workerpool from 'workerpool';
import { todayInRome } from '../../common/validation/calendar-date.js';
import type { CheckedInvoiceXml } from './index.js';
import { MAX_INVOICE_BYTES } from './libxml.js';
import type { CompanyIdentity } from './parties.js';

export interface XmlPoolSettings {
  /** Child processes that read XML at once (XML_WORKERS). */
  workers: number;
  /** Longest time one file may take in a child (XML_TIME_BUDGET_MS): past it the child is killed and replaced. */
  timeBudgetMs: number;
  /** Files that may wait for a free child (XML_QUEUE_LIMIT); one more is answered 503 at once. */
  queueLimit: number;
}

/**
 * The pool cannot answer for the file, and nothing was read: every child busy and the queue full (`busy`), the pool
 * closing (`stopping`), or the child that had the file ended under it (`stopped`: killed, out of memory; a new child
 * takes the next file).
 */
export class XmlPoolBusy extends Error {
  constructor(
    readonly reason: 'busy' | 'stopping' | 'stopped',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A signed file (.p7m) as a child answers it: the envelope refused (why), or the XML it carries (`content`) with the
 * check of that XML; `content` is empty when the child was stopped past its budget (`checked` then says too_complex).
 */
export type CheckedSignedFile = { ok: false; reason: string } | { ok: true; content: Buffer; checked: CheckedInvoiceXml };

/** The same as it crosses back from a child: the content's bytes arrive as a Uint8Array. */
type CrossedSignedFile = { ok: false; reason: string } | { ok: true; content: Uint8Array; checked: CheckedInvoiceXml };

/** A file's bytes as a Buffer over the same memory (what crosses from a child is a plain Uint8Array). */
export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Heap of one child: a 5 MB file needs well under this; a child that needs more dies alone. */
const CHILD_HEAP_MB = 512;

/** Run from the TypeScript sources (jest, tsx), the child runs the sources too, through tsx. */
const fromSources = import.meta.url.endsWith('.ts');
const WORKER_SCRIPT = fileURLToPath(new URL(fromSources ? './xml-worker.ts' : './xml-worker.js', import.meta.url));

function tooLarge(size: number): CheckedInvoiceXml {
  const message = `The file is ${size} bytes; the SDI accepts at most ${MAX_INVOICE_BYTES} (5 MB).`;
  return { invoice: null, problems: [], sdiProblems: [], refusal: { reason: 'too_large', message } };
}

function tooComplex(budgetMs: number): CheckedInvoiceXml {
  const message = `Reading the file took longer than ${budgetMs} ms, the time Flusso gives one invoice, and was stopped; a FatturaPA file of up to 5 MB needs a fraction of that.`;
  return { invoice: null, problems: [], sdiProblems: [], refusal: { reason: 'too_complex', message } };
}

/**
 * The XML pool: FatturaPA files are read and checked (checkInvoiceXml) in child processes, never on the event loop of
 * the API or the worker, so that one file, however hostile, delays no other request. Child processes, not worker
 * threads: libxmljs2 loads in one thread per process. A signed file (.p7m) is opened there too (signed-file.ts: the
 * ASN.1 decoding and the signature checks take a few milliseconds of CPU), so that only its content's bytes come
 * back. The children start on first use (workerpool) and end with close(). A file gets `timeBudgetMs` of a child's time; past it the child is killed (libxml cannot be interrupted) and the file is refused as too complex. The markup scan's limits (markup-scan.ts)
 * refuse the files known to be slow long before that.
 */
export class XmlPool {
  private readonly pool: workerpool.Pool;
  /** Set by close(): workerpool would start new children for a file that comes after, and keep the process alive. */
  private closed = false;

  constructor(private readonly settings: XmlPoolSettings) {
    this.pool = workerpool.pool(WORKER_SCRIPT, {
      workerType: 'process',
      maxWorkers: settings.workers,
      maxQueueSize: settings.queueLimit,
      // A child stopped past its budget is busy in libxml and answers no message: it is killed after this long.
      workerTerminateTimeout: 100,
      forkOpts: {
        // Structured clone: the file's bytes cross as bytes, not as a JSON array of numbers.
        serialization: 'advanced',
        execArgv: [...(fromSources ? ['--import', 'tsx'] : []), `--max-old-space-size=${CHILD_HEAP_MB}`],
      },
    });
  }

  /** The file checked in a child: a refusal `too_complex` when it takes longer than the budget. Throws XmlPoolBusy. */
  async check(bytes: Buffer, company: CompanyIdentity | null): Promise<CheckedInvoiceXml> {
    if (bytes.length > MAX_INVOICE_BYTES) return tooLarge(bytes.length);
    return (await this.run<CheckedInvoiceXml>('checkInvoiceXml', [bytes, company, todayInRome()])) ?? tooComplex(this.settings.timeBudgetMs);
  }

  /**
   * A signed file opened in a child and, when its envelope holds, the XML it carries checked there as check() does;
   * the time budget covers both. Throws XmlPoolBusy.
   */
  async checkSigned(envelope: Buffer, company: CompanyIdentity | null): Promise<CheckedSignedFile> {
    const crossed = await this.run<CrossedSignedFile>('checkSignedFile', [envelope, company, todayInRome()]);
    if (!crossed) return { ok: true, content: Buffer.alloc(0), checked: tooComplex(this.settings.timeBudgetMs) };
    return crossed.ok ? { ...crossed, content: asBuffer(crossed.content) } : crossed;
  }

  /** Runs a task of xml-worker.ts in a child: its answer, or null when it took longer than the budget. */
  private async run<T>(method: string, args: unknown[]): Promise<T | null> {
    // The budget runs from the moment the child starts on the file (it says so first): neither the wait in the queue
    // nor a child's start-up counts.
    if (this.closed) throw new XmlPoolBusy('stopping', 'The invoice readers are stopping with the process');
    let timer: NodeJS.Timeout | undefined;
    let overBudget = false;
    const started = () => {
      timer = setTimeout(() => {
        overBudget = true;
        task.cancel();
      }, this.settings.timeBudgetMs);
    };
    let task: workerpool.Promise<T>;
    try {
      task = this.pool.exec(method, args, { on: started });
    } catch {
      throw new XmlPoolBusy('busy', `Every invoice reader is busy and ${this.settings.queueLimit} files are waiting`);
    }
    try {
      return await task;
    } catch (error) {
      if (overBudget) return null;
      // The pool closed with the file still waiting for a child, or the child ended under the file.
      if (this.closed) throw new XmlPoolBusy('stopping', `The invoice readers stopped with the process: ${(error as Error).message}`);
      throw new XmlPoolBusy('stopped', `The invoice reader stopped under the file: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Files being read and files waiting for a child: what a test or an operator looks at. */
  usage(): { reading: number; waiting: number } {
    const stats = this.pool.stats();
    return { reading: stats.activeTasks, waiting: stats.pendingTasks };
  }

  /** Lets the files being read finish (each within its budget), refuses those waiting, and ends the children. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool.terminate();
  }
}
