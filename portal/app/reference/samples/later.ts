import { elixirSample } from "./elixir";
import { httpSample } from "./http";
import { javaSample } from "./java";
import { phpSample } from "./php";
import { pythonSample } from "./python";
import type { SampleRequest } from "./request";
import type { SampleId } from "./tabs";

/** The generators of the languages after the first tab: the reference's browser code loads them when one is chosen. */
export const LATER_GENERATORS: Record<Exclude<SampleId, "curl">, (request: SampleRequest) => string> = {
  http: httpSample,
  elixir: elixirSample,
  python: pythonSample,
  java: javaSample,
  php: phpSample,
};
