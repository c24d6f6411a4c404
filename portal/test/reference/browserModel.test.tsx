import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { CodeLanguageProvider } from "../../app/behaviour/codeLanguage";
import { EnvironmentProvider } from "../../app/behaviour/environment";
import { DEFAULT_HOSTS } from "../../app/layout/site";
import { buildReferenceModel, type ReferenceModel } from "../../app/reference/model";
import { OperationRequest } from "../../app/reference/OperationRequest";
import { ReferenceSidebar } from "../../app/reference/ReferenceSidebar";
import { browserModel, browserModelJson, readBrowserModel } from "../../app/reference/serverRendered";
import { fixtureDocument } from "./fixture";

const generated = buildReferenceModel(JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")));

/** What the browser hydrates: it must render from the browser's model exactly as the server renders it from the whole one. */
function hydrated(model: ReferenceModel): string {
  const operations = model.tags.flatMap((tag) => tag.operations).filter((operation) => !operation.webhook);
  return renderToStaticMarkup(
    <EnvironmentProvider hosts={DEFAULT_HOSTS} demoCompanyId="8a1e9a52-3c4d-4f7a-9b2e-1d5c6e7f8a90">
      <CodeLanguageProvider>
        <ReferenceSidebar tags={model.tags} open={false} onNavigate={() => {}} />
        {operations.map((operation) => (
          <OperationRequest key={operation.id} operation={operation} />
        ))}
      </CodeLanguageProvider>
    </EnvironmentProvider>,
  );
}

describe("the reference model the browser gets", () => {
  it.each([
    ["the test document", buildReferenceModel(fixtureDocument())],
    ["the generated document", generated],
  ])("renders the sidebar, samples, response examples and try-it of %s as the whole model does", (_, model) => {
    const markup = hydrated(model);
    expect(markup).toContain("ref-try-it");
    expect(hydrated(readBrowserModel(browserModelJson(model)))).toBe(markup);
  });

  it("leaves out what only the server renders: schemas, operation descriptions, response schemas", () => {
    const json = JSON.stringify(browserModel(generated));
    expect(json.length).toBeLessThan(JSON.stringify(generated).length / 3);
    const operations = browserModel(generated).tags.flatMap((tag) => tag.operations);
    expect(browserModel(generated).schemas).toEqual({});
    expect(operations.some((operation) => operation.description !== undefined)).toBe(false);
    expect(operations.flatMap((operation) => operation.responses).some((response) => "schema" in response && response.schema)).toBe(false);
    expect(operations.some((operation) => operation.responses.some((response) => response.example !== undefined))).toBe(true);
  });

  it("writes each response and parameter once, however many operations repeat it", () => {
    const json = browserModelJson(generated);
    expect(json.length).toBeLessThan(JSON.stringify(browserModel(generated)).length / 2);
    expect(readBrowserModel(json)).toEqual(JSON.parse(JSON.stringify(browserModel(generated))));
  });
});
