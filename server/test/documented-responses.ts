import { readFileSync } from 'node:fs';
import type { Response } from 'supertest';
import { OPENAPI_FILE } from '../src/openapi-file.js';
import { BASE_PATH } from '../src/config/api-version.js';
import { DocumentSchemas, pointerToken } from './document-schemas.js';

type Json = Record<string, unknown>;
interface Header {
  required?: boolean;
  schema?: Json;
}
interface Answer {
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  responses: Record<string, Answer>;
}
interface Route {
  method: string;
  pattern: RegExp;
  path: string;
  operation: Operation;
}

/** The published document (the file the portal reads), its routes and its compiled schemas, read once per test file. */
let published: { document: Json; routes: Route[]; schemas: DocumentSchemas } | undefined;

function load() {
  if (published) return published;
  const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    const pattern = new RegExp(`^${BASE_PATH}${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation === 'object' && operation && 'responses' in operation) routes.push({ method: method.toUpperCase(), pattern, path, operation });
    }
  }
  published = { document, routes, schemas: new DocumentSchemas(document) };
  return published;
}

/** The declared answer for a status: the status itself, else its range (`2XX`), else `default`. */
function declared(operation: Operation, status: number): [string, Answer] | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) if (operation.responses[key]) return [key, operation.responses[key]];
  return undefined;
}

/**
 * What is wrong with an answer according to the published OpenAPI document, one line each: its status must be one the
 * operation declares, its body must match the declared schema of its media type (none when none is declared), and
 * each header the status declares as required must be there with a value its schema allows. An answer to no
 * operation of the document (a path or method the API does not have, the document itself, a CORS preflight, a
 * plain-HTTP request in production) that is an error must still be the integration error.
 */
export function undocumented(response: Response): string[] {
  const { routes, schemas } = load();
  const request = (response as unknown as { req: { method: string; path: string } }).req;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const path = request.path.split('?')[0];
  const shown = path.length > 120 ? `${path.slice(0, 117)}...` : path;
  const type = String(response.headers['content-type'] ?? '').split(';')[0];
  // A plain-HTTP request in production calls none of the document's servers (all https://): like an unknown route,
  // its answer (403 https_required, on any path) is only held to the integration error.
  const overHttp = type === 'application/json' && (response.body as { errors?: Array<{ code?: string }> })?.errors?.[0]?.code === 'https_required';
  const route = overHttp ? undefined : routes.find((r) => r.method === method && r.pattern.test(path));
  const problems: string[] = [];
  if (!route) {
    if (response.status >= 400 && type === 'application/json') problems.push(...schemas.problems('#/components/schemas/IntegrationError', response.body));
    return problems.map((p) => `${request.method} ${shown} ${response.status}: ${p}`);
  }
  const where = `${route.operation.operationId} (${request.method} ${shown}) ${response.status}`;
  const answer = declared(route.operation, response.status);
  if (!answer) return [`${where}: status not declared (declared: ${Object.keys(route.operation.responses).join(', ')})`];
  const [key, { content, headers }] = answer;
  const at = `#/paths/${pointerToken(route.path)}/${method.toLowerCase()}/responses/${key}`;

  const hasBody = request.method !== 'HEAD' && (response.text ?? '') !== '';
  if (hasBody && !content) problems.push(`a body (${type}) where none is declared`);
  if (hasBody && content) {
    if (!(type in content)) problems.push(`media type ${type} not declared (declared: ${Object.keys(content).join(', ')})`);
    else {
      const body = type === 'application/json' ? response.body : response.text;
      problems.push(...schemas.problems(`${at}/content/${pointerToken(type)}/schema`, body).map((p) => `body ${p}`));
    }
  }
  for (const [name, value] of Object.entries(headers ?? {})) {
    const header = ('$ref' in value ? resolve(value.$ref) : value) as Header;
    if (!header.required) continue;
    const sent = response.headers[name.toLowerCase()];
    if (sent === undefined) {
      problems.push(`header ${name} missing`);
      continue;
    }
    const pointer = '$ref' in value ? `${value.$ref}/schema` : `${at}/headers/${pointerToken(name)}/schema`;
    const typed = header.schema?.type === 'integer' || header.schema?.type === 'number' ? Number(sent) : sent;
    problems.push(...schemas.problems(pointer, typed).map((p) => `header ${name} ${p}`));
  }
  return problems.map((p) => `${where}: ${p}`);
}

function resolve(ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, token) => (node as Json)[token.replace(/~1/g, '/').replace(/~0/g, '~')], load().document);
}

/** A supertest assertion: fails the request when its answer is not the one the published document describes. */
export function assertDocumented(response: Response): void {
  const problems = undocumented(response);
  if (problems.length)
    throw new Error(`The answer is not what the OpenAPI document says (run \`npm run openapi\` after changing the API):\n${problems.join('\n')}`);
}
