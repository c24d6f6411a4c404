import { expect } from '@jest/globals';
import type { Response } from 'supertest';
import { ERROR_CODES, type ErrorCode } from '../src/common/errors/error-codes.js';

/**
 * Asserts an answer is exactly one integration error: the status, the code with its title, a detail, and the
 * `source.pointer` when one is given (and no `source` at all when `pointer` is undefined), with the request's id in
 * `meta.request_id` and the X-Request-Id header.
 */
export function expectError(response: Response, status: number, code: ErrorCode, pointer?: string, detail?: string | RegExp): void {
  const item: Record<string, unknown> = {
    code,
    title: ERROR_CODES[code].title,
    detail: detail === undefined ? expect.any(String) : typeof detail === 'string' ? detail : expect.stringMatching(detail),
  };
  if (pointer !== undefined) item.source = { pointer };
  expect({ status: response.status, body: response.body }).toEqual({ status, body: { errors: [item], meta: { request_id: expect.any(String) } } });
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.body.meta.request_id).toBe(response.headers['x-request-id']);
}

/** The ids of a list answer, in order. */
export const ids = (response: Response): string[] => (response.body.data as Array<{ id: string }>).map((item) => item.id);

/** Sorts ids the way PostgreSQL orders uuids (byte order = lowercase hex order). */
export const byUuid = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
