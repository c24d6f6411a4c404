import type { RequestExample } from "../model";
import { curlSample } from "./curl";
import { elixirSample } from "./elixir";
import { httpSample } from "./http";
import { javaSample } from "./java";
import { phpSample } from "./php";
import { pythonSample } from "./python";
import { sampleRequest, type SampleRequest } from "./request";
import { SAMPLE_TABS, type SampleId } from "./tabs";

export interface SampleLanguage {
  id: SampleId;
  label: string;
  generate: (request: SampleRequest) => string;
}

// Imported here one by one, not through later.ts: that module is the reference's browser chunk of later languages
// (samples/onDemand.ts), and a static import of it would keep it in the chunk that imports this one.
const GENERATORS: Record<SampleId, (request: SampleRequest) => string> = {
  curl: curlSample,
  http: httpSample,
  elixir: elixirSample,
  python: pythonSample,
  java: javaSample,
  php: phpSample,
};

/** The six languages with their generators, in tab order (the server's Markdown and the tests use all at once). */
export const SAMPLE_LANGUAGES: SampleLanguage[] = SAMPLE_TABS.map((tab) => ({ ...tab, generate: GENERATORS[tab.id] }));

export function codeSamples(example: RequestExample, host: string, apiKey?: string) {
  const request = sampleRequest(example, host, apiKey);
  return SAMPLE_LANGUAGES.map((language) => ({ id: language.id, label: language.label, code: language.generate(request) }));
}
