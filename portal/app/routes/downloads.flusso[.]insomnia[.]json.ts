import { collectionResponse } from "~/reference/collections.server";

/** An Insomnia export (format 4) of every operation, generated from the OpenAPI document. */
export const loader = () => collectionResponse("insomnia");
