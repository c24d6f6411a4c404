import { readFileSync } from "node:fs";
import type { OpenApiDocument } from "../../app/reference/openapi";

/** The small document the unit tests read while the generated one evolves. */
export function fixtureDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(new URL("../fixtures/openapi.json", import.meta.url), "utf8"));
}
