import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { runMain } from './config/run-main.js';
import { generateOpenApiJson, OPENAPI_FILE } from './openapi-file.js';

/** `npm run openapi`: writes the OpenAPI document to the file the portal reads. */
runMain(async () => {
  mkdirSync(dirname(OPENAPI_FILE), { recursive: true });
  writeFileSync(OPENAPI_FILE, await generateOpenApiJson());
  console.log(`OpenAPI document written to ${OPENAPI_FILE}`);
});
