import { collectionResponse } from "~/reference/collections.server";

/** The Postman collection (v2.1) of every operation, generated from the OpenAPI document. */
export const loader = () => collectionResponse("postman");
