// The list call's latencies, measured from a thread of its own: its clock is not held up by the event loop that drives
// the load (the benchmark's senders, their bodies and answers), so it times what a separate client would see.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { request } from 'undici';

/** The `q` quantile of latencies (ms): percentile(values, 0.5) is the median. */
export const percentile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

/** The 99th percentile of latencies (ms). */
export const p99 = (values) => percentile(values, 0.99);

/**
 * Latencies (ms) of sequential GETs of `url` for `seconds`, or until `stop()` is called (which resolves with those
 * made so far).
 */
export function listLatencies(url, headers, seconds) {
  const thread = new Worker(new URL(import.meta.url), { workerData: { url, headers, seconds } });
  const values = new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });
  return Object.assign(values, { stop: () => thread.postMessage('stop') });
}

if (!isMainThread) {
  const { url, headers, seconds } = workerData;
  let stopped = false;
  parentPort.once('message', () => (stopped = true));
  const values = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end && !stopped) {
    const started = process.hrtime.bigint();
    const response = await request(url, { headers });
    await response.body.arrayBuffer();
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
    values.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  parentPort.postMessage(values);
  parentPort.close();
}
