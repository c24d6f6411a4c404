import type { ReactNode } from "react";
import type { ReferenceModel } from "./model";
import { ON_SERVER } from "./onServer";

/**
 * A part of the reference that only reads (texts, parameters, schemas, statuses): rendered on the server, and kept as
 * the server rendered it when the page hydrates (React leaves an element that sets its inner HTML as it finds it), so
 * neither its data nor its code go to the browser. Its content is given only on the server: `{ON_SERVER ? … : null}`.
 */
export function ServerRendered({
  as: Tag = "div",
  className,
  children,
}: {
  as?: "div" | "header";
  className: string;
  children: ReactNode;
}) {
  return ON_SERVER ? (
    <Tag className={className}>{children}</Tag>
  ) : (
    <Tag className={className} dangerouslySetInnerHTML={{ __html: "" }} suppressHydrationWarning />
  );
}

let serverModel: ReferenceModel | null = null;

/** The whole view model, which the route's loader gives the server's render (its data goes to the browser: not this). */
export function keepServerModel(model: ReferenceModel): void {
  serverModel = model;
}

export function getServerModel(): ReferenceModel | null {
  return serverModel;
}

/**
 * What the browser needs of the model to hydrate what is interactive (the sidebar, samples, response examples, try-it):
 * no schemas, no descriptions but the tags', of the responses only their examples. A quarter of the whole.
 */
export function browserModel(model: ReferenceModel): ReferenceModel {
  return {
    title: model.title,
    version: model.version,
    schemas: {},
    tags: model.tags.map((tag) => ({
      ...tag,
      operations: tag.operations.map((operation) => ({
        ...operation,
        description: undefined,
        responses: operation.responses.map((response) => ({
          status: response.status,
          contentType: response.contentType,
          example: response.example,
        })),
        requestBody: operation.requestBody && { ...operation.requestBody, description: undefined, schema: undefined },
      })),
    })),
  };
}
