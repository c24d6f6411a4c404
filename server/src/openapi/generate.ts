import 'reflect-metadata';
import { resolve } from 'node:path';
import { createApi } from '../app.js';
import { loadConfig } from '../config/config.js';
import { buildOpenApiDocument } from './openapi.js';

/** Where `npm run openapi` writes the document; the portal reads it from there. */
export const OPENAPI_FILE = resolve(process.cwd(), 'portal/openapi/openapi.json');

/** The OpenAPI document as the server describes itself, generated without touching a database. */
export async function generateOpenApiJson(): Promise<string> {
  const app = await createApi(loadConfig({ ...process.env, LOG_LEVEL: 'silent' }), { preview: true });
  try {
    return `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  } finally {
    await app.close();
  }
}
