import type { RequestExample } from "../../app/reference/model";
import { codeSamples, SAMPLE_LANGUAGES } from "../../app/reference/samples";
import { curlSample } from "../../app/reference/samples/curl";
import { elixirSample } from "../../app/reference/samples/elixir";
import { httpSample } from "../../app/reference/samples/http";
import { javaSample } from "../../app/reference/samples/java";
import { phpSample } from "../../app/reference/samples/php";
import { pythonSample } from "../../app/reference/samples/python";
import { sampleRequest } from "../../app/reference/samples/request";

const HOST = "https://api.sandbox.flusso.example";

const list: RequestExample = {
  method: "GET",
  path: "/api/v1/counterparts/search",
  query: [["vat_number", "IT01234567890"]],
};
const create: RequestExample = {
  method: "POST",
  path: "/api/v1/companies/c1/reconciliations",
  query: [],
  contentType: "application/json",
  body: { flow_id: "f1", note: 'it\'s "paid"', amounts: [1.5, null], paid: true },
};

describe("sampleRequest", () => {
  it("joins host, path and query, and carries the typed key when there is one", () => {
    expect(sampleRequest(list, `${HOST}/`)).toEqual({
      method: "GET",
      url: `${HOST}/api/v1/counterparts/search?vat_number=IT01234567890`,
      headers: [],
    });
    expect(sampleRequest(list, HOST, "fls_dev_typed").apiKey).toBe("fls_dev_typed");
  });

  it("serialises a JSON body and declares its content type", () => {
    const request = sampleRequest(create, HOST);
    expect(request.headers).toContainEqual(["Content-Type", "application/json"]);
    expect(JSON.parse(request.body!)).toEqual(create.body);
  });
});

describe("code samples", () => {
  it("generates the six languages, each with the host, reading the key from FLUSSO_API_KEY as the guides do", () => {
    const samples = codeSamples(create, "https://api.flusso.example");
    expect(samples.map((s) => s.label)).toEqual(["cURL", "HTTP", "Elixir", "Python", "Java", "PHP"]);
    const bearer = Object.fromEntries(
      samples.map((sample) => [
        sample.id,
        sample.code
          .split("\n")
          .find((line) => /authorization/i.test(line))
          ?.trim(),
      ]),
    );
    expect(bearer).toEqual({
      curl: `--header "Authorization: Bearer $FLUSSO_API_KEY" \\`,
      http: "Authorization: Bearer YOUR_API_KEY",
      elixir: `"authorization" => "Bearer " <> System.fetch_env!("FLUSSO_API_KEY")`,
      python: `"Authorization": f"Bearer {os.environ['FLUSSO_API_KEY']}"`,
      java: `.header("Authorization", "Bearer " + System.getenv("FLUSSO_API_KEY"))`,
      php: `'Authorization: Bearer ' . getenv('FLUSSO_API_KEY'),`,
    });
    expect(samples.find((sample) => sample.id === "python")?.code).toMatch(/^import os\n/);
    expect(SAMPLE_LANGUAGES).toHaveLength(6);
  });

  it("writes the key typed in the try-it panel into every language", () => {
    for (const sample of codeSamples(create, "https://api.flusso.example", "fls_dev_0123456789")) {
      expect(sample.code).toMatch(/authorization.{1,8}Bearer fls_dev_0123456789/i);
      expect(sample.code).not.toContain("FLUSSO_API_KEY");
    }
  });

  it("curl quotes single quotes in the body", () => {
    expect(curlSample(sampleRequest(list, HOST))).toBe(
      [
        "curl --request GET \\",
        `  --url '${HOST}/api/v1/counterparts/search?vat_number=IT01234567890' \\`,
        `  --header "Authorization: Bearer $FLUSSO_API_KEY"`,
      ].join("\n"),
    );
    expect(curlSample(sampleRequest(create, HOST))).toContain(`"note": "it'\\''s \\"paid\\""`);
  });

  it("raw HTTP has the request line, Host, headers, Content-Length and body", () => {
    const sample = httpSample(sampleRequest(create, HOST));
    const [head, body] = sample.split("\n\n");
    expect(head.split("\n")).toEqual([
      "POST /api/v1/companies/c1/reconciliations HTTP/1.1",
      "Host: api.sandbox.flusso.example",
      "Authorization: Bearer YOUR_API_KEY",
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
    ]);
    expect(JSON.parse(body)).toEqual(create.body);
  });

  it("Python passes the body as a dict literal to requests", () => {
    const sample = pythonSample(sampleRequest(create, HOST));
    expect(sample).toContain('response = requests.request(\n    "POST",');
    expect(sample).toContain('"amounts": [\n            1.5,\n            None\n        ],');
    expect(sample).toContain('"paid": True');
    expect(sample).not.toContain("Content-Type");
  });

  it("Elixir uses Req with a map literal body", () => {
    const sample = elixirSample(sampleRequest(create, HOST, "KEY"));
    expect(sample).toContain("method: :post,");
    expect(sample).toContain('"authorization" => "Bearer KEY"');
    expect(sample).toContain('json: %{\n      "flow_id" => "f1",');
    expect(sample).toContain("nil");
  });

  it("Java sends the body verbatim in a text block", () => {
    const sample = javaSample(sampleRequest(create, HOST, "KEY"));
    expect(sample).toContain('.header("Authorization", "Bearer KEY")');
    expect(sample).toContain('.method("POST", HttpRequest.BodyPublishers.ofString("""');
    expect(sample).toContain('"note": "it\'s \\\\"paid\\\\""');
    expect(javaSample(sampleRequest(list, HOST))).toContain("HttpRequest.BodyPublishers.noBody()");
  });

  it("PHP sends the body from a nowdoc with curl", () => {
    const sample = phpSample(sampleRequest(create, HOST, "KEY"));
    expect(sample).toContain("$body = <<<'BODY'\n{\n");
    expect(sample).toContain("'Authorization: Bearer KEY',");
    expect(sample).toContain("CURLOPT_CUSTOMREQUEST => 'POST',");
    expect(phpSample(sampleRequest(list, HOST))).not.toContain("$body");
  });
});
