/**
 * A child process of the XML pool (xml-pool.ts): opens signed files and checks invoice files with libxml and the
 * model, away from the event loop of the process that asked. One file at a time; the pool kills it when a file takes
 * longer than its budget.
 */
import { getPriority, setPriority } from 'node:os';
import workerpool from 'workerpool';
import { openSignedFile } from '../signed/signed-file.js';
import { checkInvoiceXml } from './index.js';
import type { CompanyIdentity } from './parties.js';
import { asBuffer } from './xml-pool.js';

// Below the process that asked, on the CPU: a reader busy with a large file leaves the cores to the event loop that
// answers everyone else first (nice 10 more than its parent).
setPriority(Math.min(19, getPriority() + 10));

// An IPC write failed (EPIPE): the process that asked is gone (killed), so there is no one left to answer.
process.on('error', () => process.exit(0));

workerpool.worker({
  // Bytes arrive as a Uint8Array (the pool's channel uses V8 serialization): wrapped, not copied.
  checkInvoiceXml: (bytes: Uint8Array, company: CompanyIdentity | null, today: string) => {
    // The pool's time budget for this file starts now.
    workerpool.workerEmit('started');
    return checkInvoiceXml(asBuffer(bytes), company, { today });
  },
  // A signed file: its envelope opened (every signature must hold), then the XML it carries checked as above.
  checkSignedFile: async (envelope: Uint8Array, company: CompanyIdentity | null, today: string) => {
    workerpool.workerEmit('started');
    const opened = await openSignedFile(asBuffer(envelope));
    if (!opened.ok) return { ok: false, reason: opened.reason };
    return { ok: true, content: opened.content, checked: checkInvoiceXml(opened.content, company, { today }) };
  },
});
