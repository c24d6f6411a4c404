import type { ServerResponse } from 'node:http';

/**
 * A signal that fires once the request is over: its answer sent, or its connection closed by the client (a time-out
 * on its side, a cancelled call), whichever comes first; already fired for a request that ended before it was asked.
 * What a request holds is given back on it, so it is given back on every path.
 */
export function requestOver(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (response.closed) controller.abort();
  else response.once('close', () => controller.abort());
  return controller.signal;
}
