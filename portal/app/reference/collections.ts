import type { EnvironmentHosts } from "~/behaviour/environment";
import { exampleAs, exampleMediaTypes, type OperationView, type ReferenceModel } from "./model";
import { isJsonMediaType } from "./samples/request";
import type { OpenApiDocument } from "./openapi";
import { pathVariableOf, preRequestScript, queryValue, suiteBody, suiteOrder, suiteTests } from "./postman-suite";
import { bodyText } from "./tryIt";

/**
 * Postman and Insomnia files made from the reference model of the OpenAPI document the portal is built with, so
 * they list exactly the operations the reference shows. Both keep the host, the key and the company in variables:
 * `baseUrl` (the site's development host; production in its own Insomnia environment), `apiKey`, `company_id`.
 * An operation whose body may be sent as several media types (an invoice as JSON or as XML) is one request per type.
 */

export const POSTMAN_URL = "/downloads/flusso.postman_collection.json";
export const INSOMNIA_URL = "/downloads/flusso.insomnia.json";

/** How the collection runs as a suite, from a terminal (the portal's OpenAPI page says the same). */
const NEWMAN_COMMAND =
  "npx newman run flusso.postman_collection.json --env-var apiKey=$FLUSSO_API_KEY --env-var company_id=$COMPANY_ID --env-var webhookUrl=$WEBHOOK_URL";

/** A receiver on the developer's machine: development accepts loopback webhook URLs (production wants public HTTPS). */
const DEVELOPMENT_RECEIVER = "http://127.0.0.1:8787/webhooks/flusso";

const POSTMAN_SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const pathParameters = (operation: OperationView) => operation.parameters.filter((p) => p.in === "path");
const queryParameters = (operation: OperationView) => operation.parameters.filter((p) => p.in === "query");
const requests = (model: ReferenceModel) =>
  model.tags
    .map((tag) => ({ tag, operations: tag.operations.filter((operation) => !operation.webhook) }))
    .filter((g) => g.operations.length > 0);

interface Variant {
  /** Absent for the operation's first request; the others are told apart by their media type, e.g. `application/xml`. */
  label?: string;
  body?: { contentType: string; text: string };
}

/** The requests an operation becomes: the example request's media type first, then each other type with its example. */
function variants(operation: OperationView): Variant[] {
  const types = exampleMediaTypes(operation) ?? [operation.example.contentType];
  return types.map((contentType, index) => {
    const example = contentType ? exampleAs(operation, contentType) : operation.example;
    return {
      ...(index > 0 ? { label: contentType } : {}),
      ...(contentType && example.body !== undefined ? { body: { contentType, text: bodyText(contentType, example.body) } } : {}),
    };
  });
}

const variantName = (operation: OperationView, { label }: Variant) => (label ? `${operation.summary} (${label})` : operation.summary);

const postmanLanguage = (contentType: string) => (isJsonMediaType(contentType) ? "json" : contentType.includes("xml") ? "xml" : "text");

/**
 * The Postman collection is also a test suite (postman-suite.ts): its folders run in an order where every id comes
 * from an earlier answer (kept in collection variables), every request tests its status and its answer's schema, and
 * the last folder deletes what the run made, so `newman run` passes against a development API, and passes again.
 */
export function postmanCollection(model: ReferenceModel, hosts: EnvironmentHosts, document: OpenApiDocument) {
  const operations = requests(model).flatMap((group) => group.operations);
  const item = suiteOrder(operations).map(({ folder, operations: calls }, folderIndex) => ({
    name: folder,
    item: calls.flatMap((operation, operationIndex) => {
      const segments = operation.path
        .split("/")
        .filter(Boolean)
        .map((segment) => segment.replace(/^\{(.+)\}$/, ":$1"));
      const query = queryParameters(operation).map((p) => ({
        key: p.name,
        value: queryValue(operation, p.name) ?? p.example ?? "",
        ...(p.description ? { description: p.description } : {}),
        disabled: !p.required && queryValue(operation, p.name) === undefined,
      }));
      const enabled = query.filter((q) => !q.disabled);
      const prerequest = preRequestScript(operation, operations, folderIndex === 0 && operationIndex === 0);
      return variants(operation).map((variant) => ({
        name: variantName(operation, variant),
        event: [
          ...(prerequest.length ? [{ listen: "prerequest", script: { type: "text/javascript", exec: prerequest } }] : []),
          { listen: "test", script: { type: "text/javascript", exec: suiteTests(operation, document) } },
        ],
        request: {
          method: operation.method,
          header: [
            { key: "Accept", value: "application/json" },
            ...(variant.body ? [{ key: "Content-Type", value: variant.body.contentType }] : []),
          ],
          url: {
            raw: `{{baseUrl}}/${segments.join("/")}${enabled.length ? `?${enabled.map((q) => `${q.key}=${q.value}`).join("&")}` : ""}`,
            host: ["{{baseUrl}}"],
            path: segments,
            ...(query.length ? { query } : {}),
            variable: pathParameters(operation).map((p) => ({
              key: p.name,
              value: `{{${pathVariableOf(operation, p.name)}}}`,
              ...(p.description ? { description: p.description } : {}),
            })),
          },
          ...(variant.body
            ? {
                body: {
                  mode: "raw",
                  raw: suiteBody(operation, variant.body.contentType, variant.body.text),
                  options: { raw: { language: postmanLanguage(variant.body.contentType) } },
                },
              }
            : {}),
          ...(operation.description ? { description: operation.description } : {}),
        },
        response: [],
      }));
    }),
  }));
  return {
    info: {
      _postman_id: "0b6f1f5e-6a53-4c39-9a59-f1a550000001",
      name: `${model.title} ${model.version}`,
      description: `Generated from the OpenAPI document, version ${model.version}. A test suite for the development environment: set apiKey, company_id and webhookUrl (a receiver the API can reach) and run it, e.g. ${NEWMAN_COMMAND}.`,
      schema: POSTMAN_SCHEMA,
    },
    auth: { type: "bearer", bearer: [{ key: "token", value: "{{apiKey}}", type: "string" }] },
    variable: [
      { key: "baseUrl", value: hosts.development, type: "string" },
      { key: "apiKey", value: "", type: "string" },
      { key: "company_id", value: "", type: "string" },
      { key: "webhookUrl", value: DEVELOPMENT_RECEIVER, type: "string" },
    ],
    item,
  };
}

const slug = (text: string) => text.replace(/[^A-Za-z0-9]+/g, "_");

/** Insomnia's export format 4, which every Insomnia release imports (and Postman too). */
export function insomniaExport(model: ReferenceModel, hosts: EnvironmentHosts) {
  const workspace = "wrk_flusso";
  const base = "env_flusso";
  const variable = (name: string) => `{{ _.${name} }}`;
  const pathNames = new Set(model.tags.flatMap((tag) => tag.operations.flatMap((o) => pathParameters(o).map((p) => p.name))));
  const resources: Array<Record<string, unknown>> = [
    { _id: workspace, _type: "workspace", parentId: null, name: `${model.title} ${model.version}`, description: "", scope: "collection" },
    {
      _id: base,
      _type: "environment",
      parentId: workspace,
      name: "Base Environment",
      data: { baseUrl: hosts.development, apiKey: "", ...Object.fromEntries([...pathNames].map((name) => [name, ""])) },
    },
    { _id: "env_flusso_development", _type: "environment", parentId: base, name: "Development", data: { baseUrl: hosts.development } },
    { _id: "env_flusso_production", _type: "environment", parentId: base, name: "Production", data: { baseUrl: hosts.production } },
  ];
  for (const { tag, operations } of requests(model)) {
    const folder = `fld_${slug(tag.name)}`;
    resources.push({ _id: folder, _type: "request_group", parentId: workspace, name: tag.name, description: "" });
    for (const operation of operations) {
      for (const variant of variants(operation)) {
        const { label, body } = variant;
        resources.push({
          _id: `req_${slug(operation.id)}${label ? `_${slug(label)}` : ""}`,
          _type: "request",
          parentId: folder,
          name: variantName(operation, variant),
          description: operation.description ?? "",
          method: operation.method,
          url: `${variable("baseUrl")}${operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => variable(name))}`,
          parameters: queryParameters(operation).map((p) => ({ name: p.name, value: p.example ?? "", disabled: !p.required })),
          headers: [{ name: "Accept", value: "application/json" }, ...(body ? [{ name: "Content-Type", value: body.contentType }] : [])],
          body: body ? { mimeType: body.contentType, text: body.text } : {},
          authentication: { type: "bearer", token: variable("apiKey") },
        });
      }
    }
  }
  return { _type: "export", __export_format: 4, __export_date: "1970-01-01T00:00:00.000Z", __export_source: "flusso.portal", resources };
}
