import { act, render, screen, fireEvent } from "@testing-library/react";
import { ColorModeProvider, colorModeScript, THEME_STORAGE_KEY, useColorMode } from "~/behaviour/colorMode";
import { ColorModeToggle } from "~/layout/ColorModeToggle";
import { setMedia } from "./media";

const DARK = "(prefers-color-scheme: dark)";

function Probe() {
  const { choice, colorMode } = useColorMode();
  return <output data-testid="probe">{`${choice}/${colorMode}`}</output>;
}

const renderToggle = () =>
  render(
    <ColorModeProvider>
      <ColorModeToggle />
      <Probe />
    </ColorModeProvider>,
  );

const html = () => document.documentElement;

describe("colour mode", () => {
  it("defaults to light, even when the OS prefers dark", () => {
    setMedia(DARK, true);
    renderToggle();
    expect(screen.getByTestId("probe").textContent).toBe("light/light");
    expect(html().dataset.theme).toBe("light");
  });

  it("cycles light → dark → system → light and saves the choice under 'theme'", () => {
    renderToggle();
    const button = screen.getByRole("button");
    fireEvent.click(button);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    expect(html().dataset.theme).toBe("dark");
    fireEvent.click(button);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("system");
    expect(html().dataset.themeChoice).toBe("system");
    fireEvent.click(button);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
    expect(button.getAttribute("aria-label")).toMatch(/Tema chiaro/);
  });

  it("starts from the stored choice", () => {
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    renderToggle();
    expect(screen.getByTestId("probe").textContent).toBe("dark/dark");
  });

  it("follows the OS live while the choice is system", () => {
    localStorage.setItem(THEME_STORAGE_KEY, "system");
    renderToggle();
    expect(html().dataset.theme).toBe("light");
    act(() => setMedia(DARK, true));
    expect(html().dataset.theme).toBe("dark");
    act(() => setMedia(DARK, false));
    expect(html().dataset.theme).toBe("light");
  });

  it("takes a choice made in another tab (storage event)", () => {
    renderToggle();
    act(() => {
      localStorage.setItem(THEME_STORAGE_KEY, "dark");
      window.dispatchEvent(new StorageEvent("storage", { key: THEME_STORAGE_KEY, newValue: "dark" }));
    });
    expect(screen.getByTestId("probe").textContent).toBe("dark/dark");
  });

  it("the head script paints the stored choice before React starts", () => {
    localStorage.setItem(THEME_STORAGE_KEY, "system");
    setMedia(DARK, true);
    new Function(colorModeScript)();
    expect(html().dataset.theme).toBe("dark");
    expect(html().dataset.themeChoice).toBe("system");

    localStorage.setItem(THEME_STORAGE_KEY, "nonsense");
    new Function(colorModeScript)();
    expect(html().dataset.theme).toBe("light");
  });
});
