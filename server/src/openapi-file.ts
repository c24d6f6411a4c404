import 'reflect-metadata';
import { resolve } from 'node:path';
import { createApi } from './app.js';
import { loadConfig } from './config/config.js';
import { buildOpenApiDocument } from './openapi/openapi.js';

/** Where `npm run openapi` writes the document; the portal reads it from there. */
export const OPENAPI_FILE = resolve(process.cwd(), 'portal/openapi/openapi.json');

/**
 * The OpenAPI document as the server describes itself, generated without touching a database. The file names the
 * default hosts whatever this machine sets: the portal and the API put their own in when they serve it.
 */
export async function generateOpenApiJson(): Promise<string> {
  const { FLUSSO_HOST_DEVELOPMENT: _development, FLUSSO_HOST_PRODUCTION: _production, ...env } = process.env;
  const app = await createApi(loadConfig({ ...env, LOG_LEVEL: 'silent' }), { preview: true });
  try {
    return `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  } finally {
    await app.close();
  }
}
