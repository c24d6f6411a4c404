/** The anchor of an operation: `/api-reference/#operation/<operationId>`. */
export const operationAnchor = (operationId: string) => `operation/${operationId}`;

/** An id made from a tag's name: an id is one token (aria-controls and aria-labelledby take a list of ids). */
export const tagAnchor = (tagName: string) => `tag-${tagName.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}`;
