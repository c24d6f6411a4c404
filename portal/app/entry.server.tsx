import { PassThrough } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { keepRendered, renderedOnce, renderOnceKey } from "./renderOnce.server";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/**
 * Waits for the whole page, deferred parts included, before sending it: every page then
 * reads complete without JavaScript, and page bodies are quick to render anyway.
 */
export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  const onceKey = renderOnceKey(request, responseStatusCode, remixContext);
  const rendered = onceKey ? renderedOnce(onceKey, request) : null;
  if (rendered) return rendered;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />, {
      onAllReady() {
        shellRendered = true;
        const body = new PassThrough();
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        if (onceKey && responseStatusCode === 200) {
          const chunks: Buffer[] = [];
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("end", () => resolve(keepRendered(onceKey, Buffer.concat(chunks), responseHeaders, request)));
          body.on("error", reject);
          pipe(body);
          return;
        }
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors after the shell are also reported by the error boundary; log them once here.
        if (shellRendered) console.error(error);
      },
    });
    setTimeout(abort, ABORT_DELAY + 1_000);
  });
}
