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

/** The pool cannot take the file now (every child busy and the queue full, or the pool closing): nothing was read. */
export class XmlPoolBusy extends Error {}

/** Heap of one child: a 5 MB file needs well under this; a child that needs more dies alone. */
const CHILD_HEAP_MB = 512;

/** Run from the TypeScript sources (jest, tsx), the child runs the sources too, through tsx. */
const fromSources = import.meta.url.endsWith('.ts');
const WORKER_SCRIPT = fileURLToPath(new URL(fromSources ? './xml-worker.ts' : './xml-worker.js', import.meta.url));

/**
 * The XML pool: FatturaPA files are read and checked (checkInvoiceXml) in child processes, never on the event loop of
 * the API or the worker, so that one file, however hostile, delays no other request. Child processes, not worker
 * threads: libxmljs2 loads in one thread per process. The children start on first use (workerpool) and end with
 * close(). A file gets `timeBudgetMs` of a child's time; past it the child is killed (libxml cannot be interrupted) and the file is refused as too complex. The markup scan's limits (markup-scan.ts)
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
    if (bytes.length > MAX_INVOICE_BYTES) {
      const message = `The file is ${bytes.length} bytes; the SDI accepts at most ${MAX_INVOICE_BYTES} (5 MB).`;
      return { invoice: null, problems: [], sdiProblems: [], refusal: { reason: 'too_large', message } };
    }
    // The budget runs from the moment the child starts on the file (it says so first): neither the wait in the queue
    // nor a child's start-up counts.
    if (this.closed) throw new XmlPoolBusy('The invoice readers are stopping with the process');
    let timer: NodeJS.Timeout | undefined;
    let overBudget = false;
    const started = () => {
      timer = setTimeout(() => {
        overBudget = true;
        task.cancel();
      }, this.settings.timeBudgetMs);
    };
    let task: workerpool.Promise<CheckedInvoiceXml>;
    try {
      task = this.pool.exec('checkInvoiceXml', [bytes, company, todayInRome()], { on: started });
    } catch {
      throw new XmlPoolBusy(`Every invoice reader is busy and ${this.settings.queueLimit} files are waiting`);
    }
    try {
      return await task;
    } catch (error) {
      if (overBudget) {
        const message = `Reading the file took longer than ${this.settings.timeBudgetMs} ms, the time Flusso gives one invoice, and was stopped; a FatturaPA file of up to 5 MB needs a fraction of that.`;
        return { invoice: null, problems: [], sdiProblems: [], refusal: { reason: 'too_complex', message } };
      }
      // The child ended under the file (killed, out of memory) or the pool is closing.
      throw new XmlPoolBusy(`The invoice reader stopped: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Lets the files being read finish (each within its budget), refuses those waiting, and ends the children. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool.terminate();
  }
}
