import { useColorMode, type ColorModeChoice } from "~/behaviour/colorMode";
import { MoonIcon, SunIcon, SystemIcon } from "./Icons";

const NEXT: Record<ColorModeChoice, ColorModeChoice> = { light: "dark", dark: "system", system: "light" };
const LABELS: Record<ColorModeChoice, string> = { light: "chiaro", dark: "scuro", system: "di sistema" };

/** Cycles light → dark → system. The icon follows <html data-theme-choice>, so it is right before hydration. */
export function ColorModeToggle() {
  const { choice, setChoice } = useColorMode();
  const label = `Tema ${LABELS[choice]}: passa al tema ${LABELS[NEXT[choice]]}`;
  return (
    <button
      type="button"
      className="icon-button color-mode-toggle"
      onClick={() => setChoice(NEXT[choice])}
      aria-label={label}
      title={label}
    >
      <SunIcon className="icon-light" />
      <MoonIcon className="icon-dark" />
      <SystemIcon className="icon-system" />
    </button>
  );
}
