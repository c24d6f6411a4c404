import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { CONTENT_LANGUAGE, type PageHandle } from "~/layout/site";
import { useMemo } from "react";
import { referenceModel } from "~/reference/document.server";
import { isKept } from "~/renderOnce.server";
import { ReferenceLayout } from "~/reference/ReferenceLayout";
import { ON_SERVER } from "~/reference/onServer";
import { browserModelJson, getServerModel, keepServerModel, readBrowserModel } from "~/reference/serverRendered";
import styles from "~/reference/reference.css?url";

// The reference shows the document of the build with the hosts of the server's start: the same for everyone.
export const handle: PageHandle = { lang: CONTENT_LANGUAGE, renderOnce: true };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => [
  { title: "API Reference | Flusso Developers" },
  { name: "description", content: "Every operation of the Flusso Integration API, with schemas, code samples and a try-it panel." },
  { tagName: "link", rel: "alternate", type: "text/markdown", href: "/api-reference.md" },
];

let pageModelJson: string | undefined;

/**
 * The server renders the page from the whole view model (kept for its render, see serverRendered.tsx); the browser gets
 * only what it hydrates, as one JSON text written once per server process, each repeated response and parameter once
 * (browserModelJson): Remix then hands one string to the browser instead of encoding thousands of objects, and the
 * browser reads it with JSON.parse. Once the page is kept rendered (with this text in it), a request is answered with
 * the kept page and its data is not used: none is given, because Remix encodes a loader's data for the browser before
 * the entry answers.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const model = referenceModel();
  if (!model) throw new Response("The OpenAPI document has not been generated yet (npm run openapi).", { status: 503 });
  keepServerModel(model);
  pageModelJson ??= browserModelJson(model);
  return { modelJson: isKept(request) ? null : pageModelJson };
}

/**
 * Reaching the reference from another page loads it as a document, the kept page: rendered in the browser, the parts
 * the server alone renders would be empty (and the data a fetch gets may be the empty one above). The hash goes along:
 * a link to an operation lands on it.
 */
export function clientLoader({ request }: ClientLoaderFunctionArgs): Response {
  const router = (window as { __remixRouter?: { state: { navigation: { location?: { hash: string } } } } }).__remixRouter;
  const url = new URL(request.url);
  url.hash = router?.state.navigation.location?.hash ?? "";
  return new Response(null, {
    status: 302,
    headers: { Location: url.pathname + url.search + url.hash, "X-Remix-Reload-Document": "true" },
  });
}

// The page and its data are the same for everyone until the server restarts: nothing to fetch again.
export const shouldRevalidate = () => false;

export default function ApiReference() {
  const { modelJson } = useLoaderData<typeof loader>();
  const model = useMemo(() => (ON_SERVER ? getServerModel() : modelJson ? readBrowserModel(modelJson) : null), [modelJson]);
  return model ? <ReferenceLayout model={model} /> : null;
}
