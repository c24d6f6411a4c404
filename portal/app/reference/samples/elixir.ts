import { doubleQuoted, RawCode, toLiteral, type LiteralSyntax } from "./literal";
import { API_KEY_VARIABLE, type SampleRequest } from "./request";

const ELIXIR: LiteralSyntax = {
  null: "nil",
  true: "true",
  false: "false",
  // "#{" would start interpolation inside an Elixir string.
  string: (text) => doubleQuoted(text).replace(/#\{/g, "\\#{"),
  array: ["[", "]"],
  object: ["%{", "}"],
  entry: (key, value) => `${key} => ${value}`,
};

/** Uses Req, the HTTP client the Elixir community reaches for first. */
export function elixirSample(request: SampleRequest): string {
  const authorization = request.apiKey
    ? `Bearer ${request.apiKey}`
    : new RawCode(`"Bearer " <> System.fetch_env!(${doubleQuoted(API_KEY_VARIABLE)})`);
  const headers = [
    ["Authorization", authorization],
    ...request.headers.filter(([name]) => request.json === undefined || name !== "Content-Type"),
  ] as const;
  const options = [
    `    method: :${request.method.toLowerCase()}`,
    `    url: ${ELIXIR.string(request.url)}`,
    `    headers: ${toLiteral(Object.fromEntries(headers.map(([n, v]) => [n.toLowerCase(), v])), ELIXIR, 2)}`,
  ];
  if (request.json !== undefined) options.push(`    json: ${toLiteral(request.json, ELIXIR, 2)}`);
  else if (request.body !== undefined) options.push(`    body: ${ELIXIR.string(request.body)}`);
  return [
    'Mix.install([{:req, "~> 0.5"}])',
    "",
    "response =",
    "  Req.request!(",
    options.join(",\n"),
    "  )",
    "",
    "IO.inspect({response.status, response.body})",
  ].join("\n");
}
