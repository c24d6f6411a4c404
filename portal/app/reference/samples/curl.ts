import type { SampleRequest } from "./request";

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlSample(request: SampleRequest): string {
  const lines = [`curl --request ${request.method} \\`, `  --url ${quote(request.url)}`];
  for (const [name, value] of request.headers) lines[lines.length - 1] += ` \\\n  --header ${quote(`${name}: ${value}`)}`;
  if (request.body !== undefined) lines[lines.length - 1] += ` \\\n  --data ${quote(request.body)}`;
  return lines.join("\n");
}
