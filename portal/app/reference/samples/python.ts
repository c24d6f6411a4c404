import { doubleQuoted, RawCode, toLiteral, type LiteralSyntax } from "./literal";
import { API_KEY_VARIABLE, type SampleRequest } from "./request";

const PYTHON: LiteralSyntax = {
  null: "None",
  true: "True",
  false: "False",
  string: doubleQuoted,
  array: ["[", "]"],
  object: ["{", "}"],
  entry: (key, value) => `${key}: ${value}`,
  indent: "    ",
};

export function pythonSample(request: SampleRequest): string {
  const authorization = request.apiKey ? `Bearer ${request.apiKey}` : new RawCode(`f"Bearer {os.environ['${API_KEY_VARIABLE}']}"`);
  const headers = [
    ["Authorization", authorization],
    ...request.headers.filter(([name]) => request.json === undefined || name !== "Content-Type"),
  ];
  const args = [
    `    ${doubleQuoted(request.method)},`,
    `    ${doubleQuoted(request.url)},`,
    `    headers=${toLiteral(Object.fromEntries(headers), PYTHON, 1)},`,
  ];
  if (request.json !== undefined) args.push(`    json=${toLiteral(request.json, PYTHON, 1)},`);
  else if (request.body !== undefined) args.push(`    data=${doubleQuoted(request.body)},`);
  const imports = request.apiKey ? ["import requests"] : ["import os", "", "import requests"];
  return [...imports, "", "response = requests.request(", ...args, ")", "print(response.status_code, response.text)"].join("\n");
}
