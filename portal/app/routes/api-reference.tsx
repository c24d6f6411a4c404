import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CONTENT_LANGUAGE, type PageHandle } from "~/layout/site";
import { referenceModel } from "~/reference/document.server";
import { ReferenceLayout } from "~/reference/ReferenceLayout";
import styles from "~/reference/reference.css?url";

export const handle: PageHandle = { lang: CONTENT_LANGUAGE };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => [
  { title: "API Reference | Flusso Developers" },
  { name: "description", content: "Every operation of the Flusso Integration API, with schemas, code samples and a try-it panel." },
  { tagName: "link", rel: "alternate", type: "text/markdown", href: "/api-reference.md" },
];

export function loader() {
  const model = referenceModel();
  if (!model) throw new Response("The OpenAPI document has not been generated yet (npm run openapi).", { status: 503 });
  return model;
}

export default function ApiReference() {
  return <ReferenceLayout model={useLoaderData<typeof loader>()} />;
}
