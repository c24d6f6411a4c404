import { ApiError, bodyPointer } from '../errors/api-error.js';

/** How deeply objects and arrays may nest in a request body; the errors page documents it. */
export const MAX_BODY_DEPTH = 32;

/**
 * Names every object inherits (`constructor`, `__proto__`, `toString`, `hasOwnProperty`…). class-transformer and
 * class-validator look members up on plain objects, where these names resolve to the inherited functions: such a
 * member is silently dropped, or crashes the transformer. No body of this API has one, so each is an unknown member.
 */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

interface Node {
  value: unknown;
  depth: number;
  parent: Node | null;
  key: string | number | null;
}

function pointerOf(node: Node): string {
  const segments: Array<string | number> = [];
  for (let at: Node | null = node; at?.parent; at = at.parent) segments.unshift(at.key!);
  return segments.length ? bodyPointer(...segments) : '';
}

/**
 * Checks a parsed JSON body before anything walks it recursively: at most MAX_BODY_DEPTH levels of objects and arrays
 * (deeper bodies overflow class-transformer's stack), and no member named after an inherited property. Iterative, so
 * that the check itself cannot overflow; a 400 `bad_request` pointing at the first offending member otherwise.
 */
export function checkJsonBody(body: unknown): void {
  const stack: Node[] = [{ value: body, depth: 1, parent: null, key: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value, depth } = node;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_BODY_DEPTH) {
      throw ApiError.of('bad_request', `The request body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep.`, pointerOf(node));
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, depth: depth + 1, parent: node, key: index }));
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      const child: Node = { value: item, depth: depth + 1, parent: node, key };
      if (INHERITED_NAMES.has(key)) throw ApiError.of('bad_request', `The member ${key} is not allowed in this request.`, pointerOf(child));
      stack.push(child);
    }
  }
}
