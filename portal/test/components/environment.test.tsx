import { act, fireEvent, render, screen } from "@testing-library/react";
import { ENVIRONMENT_STORAGE_KEY, EnvironmentProvider, environmentScript, useEnvironment } from "~/behaviour/environment";
import { EnvironmentHost } from "~/layout/EnvironmentHost";
import { TopBar } from "~/layout/TopBar";

const hosts = { development: "https://dev.example", production: "https://prod.example" };

function Probe() {
  const { environment, host } = useEnvironment();
  return <output data-testid="probe">{`${environment} ${host}`}</output>;
}

const renderBar = () =>
  render(
    <EnvironmentProvider hosts={hosts}>
      <TopBar supportEmail="help@example.test" />
      <Probe />
    </EnvironmentProvider>,
  );

describe("environment", () => {
  it("starts as Sviluppo (development) and shows the BETA notice with the support e-mail", () => {
    renderBar();
    const select = screen.getByLabelText("Ambiente:") as HTMLSelectElement;
    expect(select.value).toBe("development");
    expect([...select.options].map((o) => o.textContent)).toEqual(["Sviluppo", "Produzione"]);
    expect(screen.getByTestId("probe").textContent).toBe("development https://dev.example");
    expect(screen.getByText("BETA")).toBeTruthy();
    expect(screen.getByRole("link", { name: "help@example.test" }).getAttribute("href")).toBe("mailto:help@example.test");
  });

  it("switching saves the choice and exposes the host to the whole page", () => {
    renderBar();
    fireEvent.change(screen.getByLabelText("Ambiente:"), { target: { value: "production" } });
    expect(screen.getByTestId("probe").textContent).toBe("production https://prod.example");
    expect(localStorage.getItem(ENVIRONMENT_STORAGE_KEY)).toBe("production");
    expect(document.documentElement.dataset.environment).toBe("production");
  });

  it("restores the saved choice and follows other tabs", () => {
    localStorage.setItem(ENVIRONMENT_STORAGE_KEY, "production");
    renderBar();
    expect(screen.getByTestId("probe").textContent).toBe("production https://prod.example");
    act(() => {
      window.dispatchEvent(new StorageEvent("storage", { key: ENVIRONMENT_STORAGE_KEY, newValue: "development" }));
    });
    expect(screen.getByTestId("probe").textContent).toBe("development https://dev.example");
  });

  it("EnvironmentHost carries both hosts, tagged for the CSS that shows the selected one", () => {
    const { container } = render(
      <EnvironmentProvider hosts={hosts}>
        <EnvironmentHost />
      </EnvironmentProvider>,
    );
    expect(container.querySelector('[data-env="development"]')?.textContent).toBe("https://dev.example");
    expect(container.querySelector('[data-env="production"]')?.textContent).toBe("https://prod.example");
  });

  it("the head script marks <html> with the stored environment before React starts", () => {
    new Function(environmentScript)();
    expect(document.documentElement.dataset.environment).toBe("development");
    localStorage.setItem(ENVIRONMENT_STORAGE_KEY, "production");
    new Function(environmentScript)();
    expect(document.documentElement.dataset.environment).toBe("production");
  });
});
