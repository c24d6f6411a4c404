import { API_KEY_VARIABLE, type SampleRequest } from "./request";

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlSample(request: SampleRequest): string {
  // In double quotes the shell fills in the variable.
  const authorization = request.apiKey ? quote(`Authorization: Bearer ${request.apiKey}`) : `"Authorization: Bearer $${API_KEY_VARIABLE}"`;
  const options = [
    `--url ${quote(request.url)}`,
    `--header ${authorization}`,
    ...request.headers.map(([name, value]) => `--header ${quote(`${name}: ${value}`)}`),
    ...(request.body === undefined ? [] : [`--data ${quote(request.body)}`]),
  ];
  return [`curl --request ${request.method}`, ...options.map((option) => `  ${option}`)].join(" \\\n");
}
