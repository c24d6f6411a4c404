/** @jest-environment jsdom */
import { jest } from "@jest/globals";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { CodeLanguageProvider } from "../../app/behaviour/codeLanguage";
import { EnvironmentProvider, useEnvironment } from "../../app/behaviour/environment";
import { CodeSamples } from "../../app/reference/CodeSamples";
import { buildReferenceModel } from "../../app/reference/model";
import { Operation } from "../../app/reference/Operation";
import { ReferenceSidebar } from "../../app/reference/ReferenceSidebar";
import { SchemaTree } from "../../app/reference/SchemaTree";
import { OperationRequest } from "../../app/reference/OperationRequest";
import { API_KEY_STORAGE_KEY, COMPANY_STORAGE_KEY, resetTryItSettings } from "../../app/reference/tryItSettings";
import { fixtureDocument } from "./fixture";
import { readFileSync } from "node:fs";
import type { OpenApiDocument } from "../../app/reference/openapi";

const model = buildReferenceModel(fixtureDocument());
const operation = (id: string) => model.tags.flatMap((t) => t.operations).find((o) => o.id === id)!;
/** jsdom has no fetch Response: the panel only reads these members. */
const fakeResponse = (status: number, body: string, headers: Record<string, string> = {}) =>
  ({ status, statusText: "", headers: new Map(Object.entries(headers)), text: async () => body }) as unknown as Response;

const hosts = { development: "https://api.sandbox.flusso.example", production: "https://api.flusso.example" };

function SwitchToProduction() {
  const { setEnvironment } = useEnvironment();
  return <button onClick={() => setEnvironment("production")}>production</button>;
}

function renderWithSite(children: React.ReactNode, siteHosts = hosts, demoCompanyId: string | null = null) {
  return render(
    <EnvironmentProvider hosts={siteHosts} demoCompanyId={demoCompanyId}>
      <CodeLanguageProvider>
        <SwitchToProduction />
        {children}
      </CodeLanguageProvider>
    </EnvironmentProvider>,
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetTryItSettings();
});

describe("CodeSamples", () => {
  it("shows six tabs and switches language, the later languages' generators loading when one is first chosen", async () => {
    renderWithSite(<CodeSamples example={operation("createReconciliation").example} />);
    const tabs = screen.getAllByRole("tab");
    expect(tabs.map((t) => t.textContent)).toEqual(["cURL", "HTTP", "Elixir", "Python", "Java", "PHP"]);
    expect(screen.getByRole("tabpanel").textContent).toMatch(/^curl --request POST/);
    expect(screen.getByRole("tabpanel").getAttribute("aria-busy")).toBeNull();
    fireEvent.click(screen.getByRole("tab", { name: "Python" }));
    // The first test of the file: the generators have not been loaded yet.
    expect(screen.getByRole("tabpanel").getAttribute("aria-busy")).toBe("true");
    expect(screen.getByRole("tabpanel").textContent).toBe("");
    await waitFor(() => expect(screen.getByRole("tabpanel").textContent).toMatch(/^import os\n\nimport requests/));
    expect(screen.getByRole("tabpanel").getAttribute("aria-busy")).toBeNull();
  });

  it("rewrites the host when the environment changes", async () => {
    renderWithSite(<CodeSamples example={operation("listCompanies").example} />);
    expect(screen.getByRole("tabpanel").textContent).toContain("--url 'https://api.sandbox.flusso.example/api/v1/companies'");
    fireEvent.click(screen.getByText("production"));
    expect(screen.getByRole("tabpanel").textContent).toContain("--url 'https://api.flusso.example/api/v1/companies'");
    fireEvent.click(screen.getByRole("tab", { name: "HTTP" }));
    await waitFor(() => expect(screen.getByRole("tabpanel").textContent).toContain("Host: api.flusso.example"));
  });
});

describe("SchemaTree", () => {
  it("expands references in place, in collapsible groups, and stops at recursion", () => {
    const { container } = render(<SchemaTree node={{ kind: "ref", name: "Reconciliation" }} schemas={model.schemas} />);
    const flow = [...container.querySelectorAll(".schema-properties > li")].find(
      (li) => li.querySelector(":scope > div > code")?.textContent === "flow",
    )!;
    expect(within(flow as HTMLElement).getByText("Flow | null")).toBeTruthy();
    const details = flow.querySelector("details")!;
    expect(details.querySelector("summary")!.textContent).toBe("Campi di flow");
    expect(details.textContent).toContain("TO_PAY");
    expect(details.textContent).toContain("Stessa struttura di Flow (ricorsivo).");
    // oneOf: the Party option expands, the string option is listed with its description.
    expect(details.querySelector(".schema-variants")!.textContent).toContain("A counterpart id.");
  });
});

describe("ReferenceSidebar", () => {
  it("lists tags and operations, and a second click on an open group closes it", () => {
    render(<ReferenceSidebar tags={model.tags} open={false} onNavigate={() => {}} />);
    const group = screen.getByRole("button", { name: "Reconciliations" });
    expect(group.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("link", { name: /Create a reconciliation/ }).getAttribute("href")).toBe("#operation/createReconciliation");
    fireEvent.click(group);
    expect(group.getAttribute("aria-expanded")).toBe("false");
    expect(document.getElementById("reference-tag-reconciliations")!.hidden).toBe(true);
    fireEvent.click(group);
    expect(group.getAttribute("aria-expanded")).toBe("true");
  });

  it("ends with the webhooks", () => {
    render(<ReferenceSidebar tags={model.tags} open={false} onNavigate={() => {}} />);
    expect(screen.getAllByRole("button").at(-1)!.textContent).toBe("Webhooks");
    const list = document.getElementById("reference-tag-webhooks")!;
    expect(
      within(list)
        .getByRole("link", { name: /document\.updated/ })
        .getAttribute("href"),
    ).toBe("#operation/documentUpdated");
  });
});

describe("Operation", () => {
  it("shows the permission an API key needs for the operation, linked to its explanation", () => {
    const { container } = renderWithSite(<Operation operation={operation("createReconciliation")} schemas={model.schemas} />);
    expect(container.querySelector(".ref-permission")!.textContent).toBe("Permesso della chiave: reconciliations:write (permessi)");
    expect(screen.getByRole("link", { name: "permessi" }).getAttribute("href")).toBe("/authentication#permissions");
    const { container: without } = renderWithSite(<Operation operation={operation("deleteReconciliation")} schemas={model.schemas} />);
    expect(without.querySelector(".ref-permission")).toBeNull();
  });

  it("lists the headers of each answer, saying which are always sent", () => {
    const { container } = renderWithSite(<Operation operation={operation("createReconciliation")} schemas={model.schemas} />);
    const created = container.querySelector(".ref-response.ref-status-2xx")!;
    const rows = [...created.querySelectorAll(".ref-response-headers .schema-properties > li > div:first-child")].map(
      (row) => row.textContent,
    );
    expect(rows).toEqual(["x-request-idstringsempre", "idempotent-replayedstring"]);
  });

  it("describes a header once per operation: a later status that sends it names the first instead", () => {
    const base = operation("createReconciliation");
    const requestId = base.responses[0].headers!.find((header) => header.name === "x-request-id")!;
    expect(requestId.description).toBeTruthy();
    const withRepeat = {
      ...base,
      responses: base.responses.map((response) =>
        response.status === "422" ? { ...response, headers: [requestId, { ...requestId, name: "x-other" }] } : response,
      ),
    };
    const { container } = renderWithSite(<Operation operation={withRepeat} schemas={model.schemas} />);
    const [first, repeat] = [".ref-status-2xx", ".ref-status-4xx"].map((status) =>
      container.querySelector(`.ref-response${status} .ref-response-headers`)!,
    );
    // A property's head is its first <div>, its description the next; its facts are <p>s (reference.css).
    expect(first.querySelector("li > div + div")!.innerHTML).toBe(requestId.description);
    const rows = [...repeat.querySelectorAll(".schema-properties > li")];
    expect(rows.map((row) => row.querySelector(":scope > div:first-child")!.textContent)).toEqual([
      "x-request-idstringsempre",
      "x-otherstringsempre",
    ]);
    expect(rows[0].querySelector(":scope > div + div")).toBeNull();
    expect(rows[0].querySelector(":scope > p")!.textContent).toBe("Come nella risposta 201.");
    // Another name is another header: described where it first appears.
    expect(rows[1].querySelector(":scope > div + div")!.innerHTML).toBe(requestId.description);
  });

  it("shows a webhook as sent to the integrator: its payload schema and example, no samples or try-it", () => {
    const { container } = renderWithSite(<Operation operation={operation("documentUpdated")} schemas={model.schemas} />);
    const section = container.querySelector("section.ref-operation")!;
    expect(section.id).toBe("operation/documentUpdated");
    expect(section.querySelector(".ref-endpoint")!.textContent).toBe("POSTWebhook: Flusso lo invia al tuo endpoint");
    expect(screen.getByRole("link", { name: "come verificare la firma" }).getAttribute("href")).toBe(
      "/basics/webhook#verifying-signatures",
    );
    const names = [...section.querySelectorAll(".schema-tree li > div:first-child > code")].map((n) => n.textContent);
    expect(names).toEqual(expect.arrayContaining(["id", "event", "data", "number"]));
    expect(JSON.parse(section.querySelector(".ref-operation-samples pre")!.textContent!)).toEqual(
      operation("documentUpdated").example.body,
    );
    expect(section.querySelector(".ref-status")!.textContent).toBe("2XX");
    expect(screen.queryAllByRole("tab")).toEqual([]);
    expect(section.querySelector(".ref-try-it")).toBeNull();
  });
});

/** Opens the try-it panel and waits for its form, which loads on first open. */
/** The generated document the portal is built with, for what the small fixture has no case of. */
const published = buildReferenceModel(
  JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as OpenApiDocument,
);
const createInvoice = published.tags.flatMap((t) => t.operations).find((o) => o.id === "createInvoice")!;

async function openPanel() {
  const details = document.querySelector("details.ref-try-it") as HTMLDetailsElement;
  details.open = true;
  fireEvent(details, new Event("toggle"));
  await screen.findByRole("button", { name: "Invia" });
}

describe("TryIt", () => {
  it("keeps the key in sessionStorage only and sends it as a bearer token", async () => {
    const fetch = jest.fn(async (_url: string, _init: RequestInit) => fakeResponse(200, '{"data":[]}', { "x-ratelimit-limit": "600" }));
    window.fetch = fetch as unknown as typeof window.fetch;
    renderWithSite(<OperationRequest operation={operation("listReconciliations")} />, { ...hosts, development: "http://127.0.0.1:9" });
    await openPanel();

    fireEvent.change(screen.getByLabelText(/Chiave API/), { target: { value: "fls_dev_abc" } });
    expect(sessionStorage.getItem(API_KEY_STORAGE_KEY)).toBe("fls_dev_abc");
    expect(localStorage.getItem(API_KEY_STORAGE_KEY)).toBeNull();
    fireEvent.change(screen.getByLabelText("page_size (query)"), { target: { value: "5" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Invia" })));

    expect(fetch).toHaveBeenCalledWith(
      "http://127.0.0.1:9/api/v1/companies/5b0c6f0e-1f9e-4d2a-9f5e-2b7c8d9e0a1b/reconciliations?page_size=5",
      { method: "GET", headers: { Authorization: "Bearer fls_dev_abc" }, body: undefined },
    );
    expect(screen.getByTestId("try-it-status").textContent).toBe("200");
    expect(screen.getByTestId("try-it-body").textContent).toBe('{\n  "data": []\n}');
  });

  it("sends the example body as JSON", async () => {
    const fetch = jest.fn(async (_url: string, _init: RequestInit) => fakeResponse(201, ""));
    window.fetch = fetch as unknown as typeof window.fetch;
    sessionStorage.setItem(API_KEY_STORAGE_KEY, "fls_dev_saved");
    renderWithSite(<OperationRequest operation={operation("createReconciliation")} />);
    await openPanel();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Invia" })));
    const [, init] = fetch.mock.calls[0];
    expect(init.headers).toEqual({ Authorization: "Bearer fls_dev_saved", "Content-Type": "application/json" });
    expect(JSON.parse(init.body as string)).toEqual(operation("createReconciliation").example.body);
  });

  it("sends a body as the media type chosen, with that type's example: an invoice as JSON or as XML", async () => {
    const fetch = jest.fn(async (_url: string, _init: RequestInit) => fakeResponse(201, ""));
    window.fetch = fetch as unknown as typeof window.fetch;
    sessionStorage.setItem(API_KEY_STORAGE_KEY, "fls_dev_saved");
    renderWithSite(<OperationRequest operation={createInvoice} />);
    const code = () => document.querySelector(".code-tabs [role=tabpanel]")!.textContent!;
    const switcher = screen.getByRole("group", { name: "Formato del corpo" });
    const json = within(switcher).getByRole("button", { name: "application/json" });
    const xml = within(switcher).getByRole("button", { name: "application/xml" });
    expect(json.getAttribute("aria-pressed")).toBe("true");
    expect(code()).toContain("--header 'Content-Type: application/json'");
    expect(code()).toContain('"fattura_elettronica_header"');

    fireEvent.click(xml);
    expect(xml.getAttribute("aria-pressed")).toBe("true");
    expect(code()).toContain("--header 'Content-Type: application/xml'");
    expect(code()).toContain('--data \'<?xml version="1.0" encoding="UTF-8"?>\n<p:FatturaElettronica');
    await openPanel();
    expect(screen.getByLabelText("Corpo (application/xml)")).toHaveProperty(
      "value",
      expect.stringMatching(/^<\?xml[\s\S]*<\/p:FatturaElettronica>/),
    );
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Invia" })));
    const [, init] = fetch.mock.calls[0];
    expect(init.headers).toEqual({ Authorization: "Bearer fls_dev_saved", "Content-Type": "application/xml" });
    expect(init.body).toBe(createInvoice.requestBody!.mediaTypes![1].example);
  });

  it("fills the samples with what is typed: the key (masked on screen, whole in the copy), the company and the query", async () => {
    const writeText = jest.fn(async (_text: string) => {});
    Object.assign(navigator, { clipboard: { writeText } });
    renderWithSite(<OperationRequest operation={operation("listReconciliations")} />);
    const code = () => document.querySelector(".code-tabs [role=tabpanel]")!.textContent!;
    expect(code()).toContain(`--header "Authorization: Bearer $FLUSSO_API_KEY"`);
    await openPanel();

    fireEvent.change(screen.getByLabelText(/Chiave API/), { target: { value: "fls_dev_0123456789abcdefghij" } });
    fireEvent.change(screen.getByLabelText("company_id"), { target: { value: "11111111-2222-3333-4444-555555555555" } });
    fireEvent.change(screen.getByLabelText("page_size (query)"), { target: { value: "5" } });
    fireEvent.change(screen.getByLabelText(/^Altri parametri/), { target: { value: "filter[created_at__gte]=2026-01-01" } });

    expect(code()).toContain(
      "--url 'https://api.sandbox.flusso.example/api/v1/companies/11111111-2222-3333-4444-555555555555/reconciliations?page_size=5&filter%5Bcreated_at__gte%5D=2026-01-01'",
    );
    expect(code()).toContain("Bearer fls_dev_••••••••ghij");
    expect(code()).not.toContain("0123456789abcdef");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Copia" })));
    expect(writeText.mock.calls[0][0]).toContain("--header 'Authorization: Bearer fls_dev_0123456789abcdefghij'");
    expect(localStorage.getItem(COMPANY_STORAGE_KEY)).toBe("11111111-2222-3333-4444-555555555555");
  });

  it("targets production when it is chosen and says that production needs a production key", async () => {
    const fetch = jest.fn(async (_url: string, _init: RequestInit) => fakeResponse(401, ""));
    window.fetch = fetch as unknown as typeof window.fetch;
    renderWithSite(<OperationRequest operation={operation("listReconciliations")} />);
    await openPanel();
    const key = screen.getByLabelText(/Chiave API/) as HTMLInputElement;
    expect(key.placeholder).toBe("fls_dev_…");
    expect(screen.queryByTestId("try-it-key-notice")).toBeNull();
    fireEvent.change(key, { target: { value: "fls_dev_0123456789abcdefghij" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Invia" })));
    expect(screen.getByTestId("try-it-status").textContent).toBe("401");
    fireEvent.change(key, { target: { value: "" } });

    fireEvent.click(screen.getByText("production"));
    // The development host's answer is not shown under the production URL.
    expect(screen.queryByTestId("try-it-status")).toBeNull();
    expect(key.placeholder).toBe("fls_prod_…");
    expect(screen.getByTestId("try-it-key-notice").textContent).toMatch(/serve una chiave di produzione \(fls_prod_…\)/);
    expect(document.querySelector(".ref-try-url")!.textContent).toContain("https://api.flusso.example/api/v1/companies/");

    fireEvent.change(key, { target: { value: "fls_dev_0123456789abcdefghij" } });
    const notice = screen.getByTestId("try-it-key-notice");
    expect(notice.textContent).toMatch(/chiave dell'ambiente Sviluppo \(fls_dev_…\): l'ambiente Produzione la rifiuta con 401/);
    expect(key.getAttribute("aria-describedby")).toBe(notice.id);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Invia" })));
    expect(fetch.mock.calls[0][0]).toMatch(/^https:\/\/api\.sandbox\.flusso\.example\/api\/v1\//);
    expect(fetch.mock.calls[1][0]).toMatch(/^https:\/\/api\.flusso\.example\/api\/v1\//);
  });

  it("remembers the company across operations", () => {
    localStorage.setItem(COMPANY_STORAGE_KEY, "99999999-2222-3333-4444-555555555555");
    renderWithSite(<OperationRequest operation={operation("createReconciliation")} />);
    expect(document.querySelector(".code-tabs [role=tabpanel]")!.textContent).toContain(
      "/companies/99999999-2222-3333-4444-555555555555/reconciliations",
    );
  });

  it("starts from the development host's demo company when the site knows it, else says the example id answers 403", async () => {
    const demo = "0f2fa9f0-c0e2-4783-8f10-01b8f550a685";
    const code = () => document.querySelector(".code-tabs [role=tabpanel]")!.textContent!;
    const view = renderWithSite(<OperationRequest operation={operation("listReconciliations")} />, hosts, demo);
    expect(code()).toContain(`/companies/${demo}/reconciliations`);
    await openPanel();
    expect((screen.getByLabelText("company_id") as HTMLInputElement).value).toBe(demo);
    expect(screen.queryByTestId("try-it-company-notice")).toBeNull();
    // Production has no demo company: the example id, and the words that say to replace it.
    fireEvent.click(screen.getByText("production"));
    expect(code()).not.toContain(demo);
    expect(screen.getByTestId("try-it-company-notice").textContent).toMatch(/^Id d'esempio \(risponde 403\)/);
    // What is typed wins over the demo company.
    fireEvent.change(screen.getByLabelText("company_id"), { target: { value: "11111111-2222-3333-4444-555555555555" } });
    expect(screen.queryByTestId("try-it-company-notice")).toBeNull();
    view.unmount();
    renderWithSite(<OperationRequest operation={operation("listReconciliations")} />, hosts, demo);
    expect(code()).toContain("/companies/11111111-2222-3333-4444-555555555555/reconciliations");
  });

  it("offers an example filter the list accepts", async () => {
    renderWithSite(<OperationRequest operation={operation("listReconciliations")} />);
    await openPanel();
    const field = screen.getByLabelText(/^Altri parametri/) as HTMLInputElement;
    const [, name] = /^filter\[(\w+?)__(\w+)\]=/.exec(field.placeholder)!;
    expect(operation("listReconciliations").list!.filters.map((f) => f.field)).toContain(name);
  });
});

describe("ResponseExamples", () => {
  it("shows an XML example as the XML it is, and JSON pretty-printed", async () => {
    const { ResponseExamples } = await import("../../app/reference/ResponseExamples");
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<Document/>';
    const { container, rerender } = render(
      <ResponseExamples responses={[{ status: "200", description: "", contentType: "application/xml", example: xml } as never]} />,
    );
    expect(container.querySelector("code")!.textContent).toBe(xml);
    rerender(
      <ResponseExamples responses={[{ status: "200", description: "", contentType: "application/json", example: { a: 1 } } as never]} />,
    );
    expect(container.querySelector("code")!.textContent).toBe('{\n  "a": 1\n}');
  });
});
