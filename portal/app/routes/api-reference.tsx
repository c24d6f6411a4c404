import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CONTENT_LANGUAGE, type PageHandle } from "~/layout/site";
import { useMemo } from "react";
import { referenceModelJson } from "~/reference/document.server";
import type { ReferenceModel } from "~/reference/model";
import { ReferenceLayout } from "~/reference/ReferenceLayout";
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
 * The view model as one JSON text, written once per server process: Remix then hands one string to the browser instead
 * of encoding thousands of objects on every request, and the browser reads it with JSON.parse.
 */
export function loader() {
  const modelJson = referenceModelJson();
  if (!modelJson) throw new Response("The OpenAPI document has not been generated yet (npm run openapi).", { status: 503 });
  return { modelJson };
}

export default function ApiReference() {
  const { modelJson } = useLoaderData<typeof loader>();
  const model = useMemo(() => JSON.parse(modelJson) as ReferenceModel, [modelJson]);
  return <ReferenceLayout model={model} />;
}
