// A sender thread of bench/xml.mjs: one kind of heavy invoice file, sent one after another while 'start'ed, so that
// writing and sending 5 MB bodies does not delay the list calls the main thread times. It imports nothing of the
// server (libxmljs2 loads in one thread per process). Each answer is reported; 'stopped' follows a 'stop'.
import { parentPort, workerData } from 'node:worker_threads';

const { base, headers, company, kind, xml } = workerData;
let sending = false;
let n = 0;
/** The file, with its own invoice number for each request of a numbered kind (no duplicate, SDI rule 00404). */
const body = () => Buffer.from(xml.includes('<Numero>N</Numero>') ? xml.replace('<Numero>N</Numero>', `<Numero>${kind}-${n++}</Numero>`) : xml);

parentPort.on('message', async (message) => {
  if (message === 'stop') sending = false;
  if (message !== 'start') return;
  sending = true;
  while (sending) {
    const started = process.hrtime.bigint();
    const response = await fetch(`${base}/companies/${company}/documents/invoice`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/xml' },
      body: body(),
    });
    await response.arrayBuffer();
    parentPort.postMessage({ ms: Number(process.hrtime.bigint() - started) / 1e6, status: response.status });
  }
  parentPort.postMessage('stopped');
});
