import { describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { RESPONSE_EXAMPLES } from '../src/openapi/examples.js';
import { undocumented } from './documented-responses.js';

const company = '3f0c5a2e-8a4b-4d6e-9b1f-2c7d8e9fa012';
const document = '5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c';
const counted = { 'x-request-id': 'req-1', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599', 'content-type': 'application/json; charset=utf-8' };

/** An answer as supertest hands it over: the request it answers, status, headers and body. */
function answer(method: string, path: string, status: number, headers: Record<string, string>, body?: unknown): Response {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { req: { method, path }, status, headers, body: typeof body === 'string' ? {} : (body ?? {}), text } as unknown as Response;
}

describe('an answer checked against the published OpenAPI document', () => {
  const getDocument = (status: number, headers: Record<string, string>, body?: unknown) =>
    answer('GET', `/api/v1/companies/${company}/documents/${document}?expand=flows`, status, headers, body);

  it('passes when its status, body and headers are the declared ones', () => {
    expect(undocumented(getDocument(200, counted, RESPONSE_EXAMPLES.getDocument.value))).toEqual([]);
    expect(undocumented(answer('DELETE', `/api/v1/companies/${company}/reconciliations/${document}`, 204, counted))).toEqual([]);
  });

  it('fails for a status the operation does not declare', () => {
    expect(undocumented(getDocument(418, counted, {}))).toEqual([
      expect.stringMatching(/^getDocument \(GET .*\) 418: status not declared \(declared: 200, 400, 401/),
    ]);
  });

  it('fails for a body its schema refuses, naming the member', () => {
    const { format: _format, ...withoutFormat } = RESPONSE_EXAMPLES.getDocument.value as Record<string, unknown>;
    expect(undocumented(getDocument(200, counted, withoutFormat))).toEqual([expect.stringMatching(/body \/ must have required property 'format'/)]);
    expect(undocumented(getDocument(200, counted, { ...withoutFormat, format: null }))).toEqual(
      expect.arrayContaining([expect.stringMatching(/body \/format must be string/)]),
    );
  });

  it('fails for a missing required header, a header value its schema refuses, and an undeclared media type', () => {
    const { 'x-ratelimit-remaining': _remaining, ...uncounted } = counted;
    expect(undocumented(getDocument(200, uncounted, RESPONSE_EXAMPLES.getDocument.value))).toEqual([
      expect.stringMatching(/header x-ratelimit-remaining missing$/),
    ]);
    expect(undocumented(getDocument(200, { ...counted, 'x-ratelimit-limit': 'lots' }, RESPONSE_EXAMPLES.getDocument.value))).toEqual([
      expect.stringMatching(/header x-ratelimit-limit \/ must be integer/),
    ]);
    const limited = { errors: [{ code: 'too_many_requests', title: 'Too many requests', detail: 'Retry in 3 seconds.' }], meta: { request_id: 'r' } };
    expect(undocumented(getDocument(429, { ...counted, 'x-ratelimit-remaining': '0', 'retry-after': '3' }, limited))).toEqual([]);
    expect(undocumented(getDocument(429, { ...uncounted, 'retry-after': '3' }, limited))).toEqual([
      expect.stringMatching(/429: header x-ratelimit-remaining missing$/),
    ]);
    expect(undocumented(getDocument(200, { ...counted, 'content-type': 'text/html' }, '<p>ok</p>'))).toEqual([
      expect.stringMatching(/media type text\/html not declared/),
    ]);
  });

  it('wants the integration error from a path the document does not have', () => {
    const error = { errors: [{ code: 'not_found', title: 'Not found', detail: 'There is no route GET /api/v1/nowhere.' }], meta: { request_id: 'r' } };
    expect(undocumented(answer('GET', '/api/v1/nowhere', 404, counted, error))).toEqual([]);
    expect(undocumented(answer('GET', '/api/v1/nowhere', 404, counted, { message: 'Not Found' }))).not.toEqual([]);
  });
});
