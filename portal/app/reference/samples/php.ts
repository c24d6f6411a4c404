import { API_KEY_VARIABLE, type SampleRequest } from "./request";

const single = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** Uses PHP's bundled curl extension; the body sits in a nowdoc so it is sent byte for byte. */
export function phpSample(request: SampleRequest): string {
  const options = [
    `    CURLOPT_CUSTOMREQUEST => ${single(request.method)},`,
    "    CURLOPT_HTTPHEADER => [",
    `        ${request.apiKey ? single(`Authorization: Bearer ${request.apiKey}`) : `'Authorization: Bearer ' . getenv(${single(API_KEY_VARIABLE)})`},`,
    ...request.headers.map(([name, value]) => `        ${single(`${name}: ${value}`)},`),
    "    ],",
    "    CURLOPT_RETURNTRANSFER => true,",
  ];
  if (request.body !== undefined) options.push("    CURLOPT_POSTFIELDS => $body,");
  const body = request.body === undefined ? [] : [`$body = <<<'BODY'`, request.body, "BODY;", ""];
  return [
    "<?php",
    "",
    ...body,
    `$curl = curl_init(${single(request.url)});`,
    "curl_setopt_array($curl, [",
    ...options,
    "]);",
    "$response = curl_exec($curl);",
    "$status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);",
    "curl_close($curl);",
    "",
    "echo $status, PHP_EOL, $response;",
  ].join("\n");
}
