import type { RequestExample } from "../model";
import { curlSample } from "./curl";
import { elixirSample } from "./elixir";
import { httpSample } from "./http";
import { javaSample } from "./java";
import { phpSample } from "./php";
import { pythonSample } from "./python";
import { sampleRequest, type SampleRequest } from "./request";

export interface SampleLanguage {
  id: "curl" | "http" | "elixir" | "python" | "java" | "php";
  label: string;
  generate: (request: SampleRequest) => string;
}

/** The six languages of the docs, in the tab order the docs pages use too. */
export const SAMPLE_LANGUAGES: SampleLanguage[] = [
  { id: "curl", label: "cURL", generate: curlSample },
  { id: "http", label: "HTTP", generate: httpSample },
  { id: "elixir", label: "Elixir", generate: elixirSample },
  { id: "python", label: "Python", generate: pythonSample },
  { id: "java", label: "Java", generate: javaSample },
  { id: "php", label: "PHP", generate: phpSample },
];

export function codeSamples(example: RequestExample, host: string, apiKey?: string) {
  const request = sampleRequest(example, host, apiKey);
  return SAMPLE_LANGUAGES.map((language) => ({ id: language.id, label: language.label, code: language.generate(request) }));
}
