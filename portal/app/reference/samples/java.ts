import { doubleQuoted } from "./literal";
import { API_KEY_VARIABLE, type SampleRequest } from "./request";

/** A Java text block holding the body verbatim (backslashes and triple quotes escaped). */
function textBlock(body: string): string {
  const escaped = body.replace(/\\/g, "\\\\").replace(/"""/g, '\\"""');
  return `"""\n${escaped
    .split("\n")
    .map((line) => `            ${line}`)
    .join("\n")}\n            """`;
}

/** Uses java.net.http, in the JDK since Java 11: no dependency to add. */
export function javaSample(request: SampleRequest): string {
  const publisher =
    request.body === undefined ? "HttpRequest.BodyPublishers.noBody()" : `HttpRequest.BodyPublishers.ofString(${textBlock(request.body)})`;
  return [
    "import java.net.URI;",
    "import java.net.http.HttpClient;",
    "import java.net.http.HttpRequest;",
    "import java.net.http.HttpResponse;",
    "",
    "HttpRequest request = HttpRequest.newBuilder()",
    `    .uri(URI.create(${doubleQuoted(request.url)}))`,
    `    .header("Authorization", ${request.apiKey ? doubleQuoted(`Bearer ${request.apiKey}`) : `"Bearer " + System.getenv(${doubleQuoted(API_KEY_VARIABLE)})`})`,
    ...request.headers.map(([name, value]) => `    .header(${doubleQuoted(name)}, ${doubleQuoted(value)})`),
    `    .method(${doubleQuoted(request.method)}, ${publisher})`,
    "    .build();",
    "HttpResponse<String> response = HttpClient.newHttpClient()",
    "    .send(request, HttpResponse.BodyHandlers.ofString());",
    'System.out.println(response.statusCode() + " " + response.body());',
  ].join("\n");
}
