import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { generate, OPERATIONS_FILE, SCHEMA_FILE } from '../scripts/generate.js';

describe("the SDK's generated files", () => {
  it('are what the generator writes from portal/openapi/openapi.json (run `npm run openapi` after a change of the contract)', async () => {
    const { schema, operations } = await generate();
    // Compared as booleans first: a diff of a 900 KB file helps nobody; the generator's output is the fix.
    expect(readFileSync(SCHEMA_FILE, 'utf8') === schema).toBe(true);
    expect(readFileSync(OPERATIONS_FILE, 'utf8')).toBe(operations);
  });
});
