import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { generateOpenApiJson, OPENAPI_FILE } from './generate.js';

describe('the OpenAPI document the portal reads', () => {
  it('is the one the code generates (run `npm run openapi` after changing the API)', async () => {
    const generated = await generateOpenApiJson();
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(generated);
  });

  it('validates as OpenAPI 3 and reports version 1.2.0 with the bearer scheme', async () => {
    const document = JSON.parse(await generateOpenApiJson());
    await SwaggerParser.validate(structuredClone(document));
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('1.2.0');
    expect(document.components.securitySchemes.authorization).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(document.servers.map((s: { url: string }) => s.url)).toEqual(['https://api.sandbox.flusso.example/api/v1', 'https://api.flusso.example/api/v1']);
  });
});
