import type { LinksFunction, MetaFunction } from "@remix-run/node";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { CONTENT_LANGUAGE, type PageHandle } from "~/layout/site";
import { referenceModel } from "~/reference/document.server";
import type { ReferenceModel } from "~/reference/model";
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

/**
 * The server renders the page from the whole view model (kept for its render, see serverRendered.tsx); the loader gives
 * no data. The browser's model (what it hydrates) is written into the page as JSON (ModelData), not as loader data:
 * Remix would encode that text twice over (a string in its stream, its stream in a script's string literal), which
 * took a third more room than the JSON itself.
 */
export function loader() {
  const model = referenceModel();
  if (!model) throw new Response("The OpenAPI document has not been generated yet (npm run openapi).", { status: 503 });
  keepServerModel(model);
  return null;
}

/**
 * Reaching the reference from another page loads it as a document, the kept page: rendered in the browser, the parts
 * the server alone renders would be empty, and its data is only in the document. The hash goes along:
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

const MODEL_DATA_ID = "reference-model";

// Server: the browser's model as the page carries it, written once per process. Browser: the model read from the page
// once (the reference renders again, without the page's data element, after the error screen).
let pageModelJson: string | undefined;
let pageModel: ReferenceModel | undefined;

/**
 * The browser's model as JSON in a data block (`<` escaped, so its text cannot end the element), kept as the server
 * wrote it when the page hydrates (React leaves an element that sets its inner HTML as it finds it).
 */
function ModelData({ model }: { model: ReferenceModel }) {
  if (ON_SERVER) pageModelJson ??= browserModelJson(model).replace(/</g, "\\u003c");
  return (
    <script
      id={MODEL_DATA_ID}
      type="application/json"
      dangerouslySetInnerHTML={{ __html: ON_SERVER ? pageModelJson! : "" }}
      suppressHydrationWarning
    />
  );
}

function browserPageModel(): ReferenceModel | undefined {
  if (!pageModel) {
    const json = document.getElementById(MODEL_DATA_ID)?.textContent;
    if (json) pageModel = readBrowserModel(json);
  }
  return pageModel;
}

export default function ApiReference() {
  const model = ON_SERVER ? getServerModel() : browserPageModel();
  return model ? (
    <>
      <ModelData model={model} />
      <ReferenceLayout model={model} />
    </>
  ) : null;
}
