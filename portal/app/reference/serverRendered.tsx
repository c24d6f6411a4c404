import type { ReactNode } from "react";
import type { OperationView, ParameterView, ReferenceModel, ResponseView, TagView } from "./model";
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

type SharedOperation = Omit<OperationView, "parameters" | "responses"> & { parameters: number[]; responses: number[] };
/** The browser's model as the page carries it: operations name their parameters and responses by index in `shared`. */
type SharedModel = Omit<ReferenceModel, "tags"> & {
  tags: Array<Omit<TagView, "operations"> & { operations: SharedOperation[] }>;
  shared: unknown[];
};

/**
 * The browser's model as JSON, each parameter and response (its status, media type and example) written once: most
 * operations answer the same errors with the same examples and take the same parameters (the company, paging), which
 * written out at each were two thirds of the page's data.
 */
export function browserModelJson(model: ReferenceModel): string {
  const shared: unknown[] = [];
  const indexes = new Map<string, number>();
  const share = (value: unknown): number => {
    const json = JSON.stringify(value);
    let index = indexes.get(json);
    if (index === undefined) {
      index = shared.push(value) - 1;
      indexes.set(json, index);
    }
    return index;
  };
  const browser = browserModel(model);
  const page: SharedModel = {
    ...browser,
    tags: browser.tags.map((tag) => ({
      ...tag,
      operations: tag.operations.map((operation) => ({
        ...operation,
        parameters: operation.parameters.map(share),
        responses: operation.responses.map(share),
      })),
    })),
    shared,
  };
  return JSON.stringify(page);
}

/** The model `browserModelJson` wrote, its shared parameters and responses in place again. */
export function readBrowserModel(json: string): ReferenceModel {
  const { shared, ...page } = JSON.parse(json) as SharedModel;
  return {
    ...page,
    tags: page.tags.map((tag) => ({
      ...tag,
      operations: tag.operations.map((operation) => ({
        ...operation,
        parameters: operation.parameters.map((index) => shared[index] as ParameterView),
        responses: operation.responses.map((index) => shared[index] as ResponseView),
      })),
    })),
  };
}
