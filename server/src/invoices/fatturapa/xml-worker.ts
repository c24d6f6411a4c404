/**
 * A child process of the XML pool (xml-pool.ts): checks invoice files with libxml and the model, away from the event
 * loop of the process that asked. One file at a time; the pool kills it when a file takes longer than its budget.
 */
import { getPriority, setPriority } from 'node:os';
import workerpool from 'workerpool';
import { checkInvoiceXml } from './index.js';
import type { CompanyIdentity } from './parties.js';

// Below the process that asked, on the CPU: a reader busy with a large file leaves the cores to the event loop that
// answers everyone else first (nice 10 more than its parent).
setPriority(Math.min(19, getPriority() + 10));

workerpool.worker({
  // Bytes arrive as a Uint8Array (the pool's channel uses V8 serialization): wrapped, not copied.
  checkInvoiceXml: (bytes: Uint8Array, company: CompanyIdentity | null, today: string) => {
    // The pool's time budget for this file starts now.
    workerpool.workerEmit('started');
    return checkInvoiceXml(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), company, { today });
  },
});
