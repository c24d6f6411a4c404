import { jest } from "@jest/globals";
import { act, fireEvent, render, renderHook, screen, waitFor } from "@testing-library/react";
import { findActiveHeading } from "~/behaviour/activeHeading";
import { CODE_LANGUAGE_STORAGE_KEY, CodeLanguageProvider } from "~/behaviour/codeLanguage";
import { docsPreferredVersionStorageKey, useDocsPreferredVersion } from "~/behaviour/docsPreferredVersion";
import { EnvironmentProvider } from "~/behaviour/environment";
import { routerPath } from "~/behaviour/routerPath";
import { visibleCode } from "~/docs/DocContent";
import { renderSample } from "~/docs/samples";
import { CodeTabs } from "~/layout/CodeTabs";
import { nestToc, TableOfContents } from "~/layout/TableOfContents";

const hosts = { development: "https://dev.example", production: "https://prod.example" };

describe("preferred docs version", () => {
  it("is stored per docs plugin under docs-preferred-version-<pluginId>", () => {
    expect(docsPreferredVersionStorageKey("default")).toBe("docs-preferred-version-default");
    const { result } = renderHook(() => useDocsPreferredVersion("default"));
    expect(result.current.preferredVersion).toBeNull();
    act(() => result.current.savePreferredVersion("1.2.0"));
    expect(localStorage.getItem("docs-preferred-version-default")).toBe("1.2.0");
    expect(localStorage.getItem("docs-preferred-version-other")).toBeNull();
    expect(renderHook(() => useDocsPreferredVersion("default")).result.current.preferredVersion).toBe("1.2.0");
  });
});

describe("code sample tabs", () => {
  const samples = [
    renderSample("curl", "curl {{host}}/api/v1/companies -H 'Authorization: Bearer KEY'", hosts),
    renderSample("python", "requests.get('{{host}}/api/v1/companies')", hosts),
  ];
  const renderTabs = () =>
    render(
      <EnvironmentProvider hosts={hosts}>
        <CodeLanguageProvider>
          <CodeTabs samples={samples} />
          <CodeTabs samples={samples} />
        </CodeLanguageProvider>
      </EnvironmentProvider>,
    );

  it("shows one tab per language, the first selected", () => {
    renderTabs();
    const tabs = screen.getAllByRole("tablist")[0].querySelectorAll("[role=tab]");
    expect([...tabs].map((t) => t.textContent)).toEqual(["cURL", "Python"]);
    expect(tabs[0].getAttribute("aria-selected")).toBe("true");
  });

  it("a choice applies to every group and is remembered", () => {
    renderTabs();
    fireEvent.click(screen.getAllByRole("tab", { name: "Python" })[0]);
    for (const tab of screen.getAllByRole("tab", { name: "Python" })) expect(tab.getAttribute("aria-selected")).toBe("true");
    expect(screen.getAllByRole("tabpanel")[1].textContent).toContain("requests.get");
    expect(localStorage.getItem(CODE_LANGUAGE_STORAGE_KEY)).toBe("python");
  });

  it("arrow keys move between tabs", () => {
    renderTabs();
    const [list] = screen.getAllByRole("tablist");
    fireEvent.keyDown(list, { key: "ArrowRight" });
    expect(screen.getAllByRole("tab", { name: "Python" })[0].getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(list, { key: "ArrowRight" });
    expect(screen.getAllByRole("tab", { name: "cURL" })[0].getAttribute("aria-selected")).toBe("true");
  });

  it("copies the code with the selected environment's host", async () => {
    const writeText = jest.fn(async (_: string) => {});
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
    localStorage.setItem("flusso.environment", "production");
    renderTabs();
    fireEvent.click(screen.getAllByRole("button", { name: "Copia" })[0]);
    await waitFor(() => expect(writeText).toHaveBeenCalled());
    expect(writeText.mock.calls[0][0]).toBe("curl https://prod.example/api/v1/companies -H 'Authorization: Bearer KEY'");
    expect(await screen.findByRole("button", { name: "Copiato" })).toBeTruthy();
  });
});

describe("table of contents", () => {
  const items = [
    { id: "a", text: "A", level: 2 as const },
    { id: "a1", text: "A1", level: 3 as const },
    { id: "b", text: "B", level: 2 as const },
  ];

  it("nests h3 under the preceding h2 and keeps only levels 2–3", () => {
    const nested = nestToc([...items, { id: "deep", text: "Deep", level: 4 as unknown as 3 }]);
    expect(nested.map((n) => [n.id, n.children.map((c) => c.id)])).toEqual([
      ["a", ["a1"]],
      ["b", []],
    ]);
  });

  it("links every entry to its heading", () => {
    render(<TableOfContents items={items} />);
    expect(screen.getAllByRole("link").map((a) => a.getAttribute("href"))).toEqual(["#a", "#a1", "#b"]);
  });
});

describe("active TOC entry", () => {
  it("is the last heading above the reading line, or the first one before any", () => {
    document.body.innerHTML = `<h2 id="a"></h2><h3 id="a1"></h3><h2 id="b"></h2>`;
    const tops: Record<string, number> = { a: -400, a1: 40, b: 600 };
    for (const el of document.querySelectorAll("h2, h3")) {
      (el as HTMLElement).getBoundingClientRect = () => ({ top: tops[el.id] }) as DOMRect;
    }
    expect(findActiveHeading(["a", "a1", "b"], 76)).toBe("a1");
    tops.a1 = 200;
    expect(findActiveHeading(["a", "a1", "b"], 76)).toBe("a");
    tops.a = 300;
    expect(findActiveHeading(["a", "a1", "b"], 76)).toBe("a");
  });
});

describe("rendered Markdown helpers", () => {
  const anchor = (html: string) => {
    document.body.innerHTML = html;
    return document.body.querySelector("a")!;
  };

  it("routes only site pages through the router", () => {
    expect(routerPath(anchor('<a href="/basics/errors#codes">x</a>'))).toBe("/basics/errors#codes");
    expect(routerPath(anchor('<a href="/api-reference/#operation/listFlows">x</a>'))).toBe("/api-reference/#operation/listFlows");
    expect(routerPath(anchor('<a href="/openapi.json">x</a>'))).toBeNull();
    expect(routerPath(anchor('<a href="https://example.com/">x</a>'))).toBeNull();
    expect(routerPath(anchor('<a href="//example.com/">x</a>'))).toBeNull();
    expect(routerPath(anchor('<a href="/x" target="_blank">x</a>'))).toBeNull();
    expect(routerPath(anchor("<a href='#local'>x</a>"))).toBeNull();
  });

  it("copies a plain code block with only the selected host", () => {
    document.body.innerHTML = `<code>GET <span class="env-host"><span data-env="development">https://dev.example</span><span data-env="production">https://prod.example</span></span>/api/v1</code>`;
    const code = document.querySelector("code")!;
    expect(visibleCode(code, "production")).toBe("GET https://prod.example/api/v1");
    expect(visibleCode(code, "development")).toBe("GET https://dev.example/api/v1");
  });
});
