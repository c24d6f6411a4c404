import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { MOBILE_QUERY } from "~/behaviour/windowSize";
import type { SidebarItem } from "~/docs/sidebar";
import { DocsLayout } from "~/layout/DocsLayout";
import { SiteShell } from "~/layout/SiteShell";
import { setMedia } from "./media";

const sidebar: SidebarItem[] = [
  { type: "link", label: "Getting started", href: "/", docPath: "index" },
  {
    type: "category",
    label: "Basics",
    items: [
      { type: "link", label: "Errors", href: "/basics/errors", docPath: "basics/errors" },
      { type: "link", label: "Webhooks", href: "/basics/webhook", docPath: "basics/webhook" },
    ],
  },
];

function renderShell(path = "/basics/errors") {
  const Page = () => (
    <SiteShell
      hosts={{ development: "https://dev.example", production: "https://prod.example" }}
      supportEmail="help@example.test"
      sidebar={sidebar}
    >
      <DocsLayout sidebar={sidebar}>
        <h1>Page</h1>
      </DocsLayout>
    </SiteShell>
  );
  const Stub = createRemixStub([{ path: "*", Component: Page }]);
  return render(<Stub initialEntries={[path]} />);
}

describe("site shell", () => {
  it("has the skip link, Italian navbar labels, and the footer columns", async () => {
    renderShell();
    await screen.findByRole("heading", { name: "Page" });
    const skip = screen.getByRole("link", { name: "Vai al contenuto principale" });
    expect(skip.getAttribute("href")).toBe("#main-content");
    expect(document.getElementById("main-content")?.tagName).toBe("MAIN");
    const navbar = screen.getByRole("navigation", { name: "Principale" });
    expect(navbar.textContent).toContain("Documentazione");
    expect(screen.getAllByRole("link", { name: "API Reference" })[0].getAttribute("href")).toBe("/api-reference/");
    const footer = screen.getByRole("contentinfo");
    for (const column of ["Documentazione", "Prodotto", "Community", "Legale"]) expect(footer.textContent).toContain(column);
    for (const legal of ["Cookie policy", "Termini di servizio", "Privacy policy"]) expect(footer.textContent).toContain(legal);
  });

  it("opens the category holding the current page and marks the page", async () => {
    renderShell();
    await screen.findByRole("heading", { name: "Page" });
    const sidebarNav = screen.getByRole("navigation", { name: "Documentazione" });
    const toggle = sidebarNav.querySelector("button[aria-expanded]")!;
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(sidebarNav.querySelector('[aria-current="page"]')?.textContent).toBe("Errors");
  });

  it("mobile: the menu button and 'Documentazione' open the drawer; Escape and a resize to desktop close it", async () => {
    setMedia(MOBILE_QUERY, true);
    renderShell();
    await screen.findByRole("heading", { name: "Page" });
    const drawer = () => document.querySelector<HTMLElement>(".mobile-drawer")!;
    // Its code loads once the layout is the mobile one.
    await waitFor(() => expect(drawer()).not.toBeNull());
    expect(drawer().hidden).toBe(true);

    fireEvent.click(screen.getByRole("button", { name: "Apri il menu della documentazione" }));
    expect(drawer().hidden).toBe(false);
    expect(screen.getByRole("dialog").textContent).toContain("Webhooks");
    act(() => {
      window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    });
    expect(drawer().hidden).toBe(true);

    fireEvent.click(screen.getByRole("navigation", { name: "Principale" }).querySelector(".navbar-items a")!);
    expect(drawer().hidden).toBe(false);
    act(() => setMedia(MOBILE_QUERY, false));
    expect(drawer().hidden).toBe(true);
  });
});
