/** The anchor of an operation: `/api-reference/#operation/<operationId>`. */
export const operationAnchor = (operationId: string) => `operation/${operationId}`;
