import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { onStorageChange, readStorage, writeStorage } from "./storage";

export type ColorModeChoice = "light" | "dark" | "system";
export type ColorMode = "light" | "dark";

export const THEME_STORAGE_KEY = "theme";
export const DEFAULT_COLOR_MODE_CHOICE: ColorModeChoice = "light";
const DARK_QUERY = "(prefers-color-scheme: dark)";

export function parseChoice(value: string | null | undefined): ColorModeChoice {
  return value === "light" || value === "dark" || value === "system" ? value : DEFAULT_COLOR_MODE_CHOICE;
}

export function resolveColorMode(choice: ColorModeChoice, prefersDark: boolean): ColorMode {
  if (choice === "system") return prefersDark ? "dark" : "light";
  return choice;
}

/**
 * Runs in <head> before the first paint, so a dark page never flashes light.
 * It must agree with `applyColorMode` below.
 */
export const colorModeScript = `(function(){try{var c=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});
if(c!=="light"&&c!=="dark"&&c!=="system")c=${JSON.stringify(DEFAULT_COLOR_MODE_CHOICE)};
var m=c==="system"?(matchMedia(${JSON.stringify(DARK_QUERY)}).matches?"dark":"light"):c;
var d=document.documentElement;d.dataset.theme=m;d.dataset.themeChoice=c;d.style.colorScheme=m}catch(e){}})();`;

function applyColorMode(choice: ColorModeChoice, mode: ColorMode) {
  const root = document.documentElement;
  root.dataset.theme = mode;
  root.dataset.themeChoice = choice;
  root.style.colorScheme = mode;
}

function prefersDark() {
  return typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches;
}

type ColorModeValue = {
  /** What the user picked. */
  choice: ColorModeChoice;
  /** What is on screen: `system` resolved against the operating system. */
  colorMode: ColorMode;
  setChoice: (choice: ColorModeChoice) => void;
};

const ColorModeContext = createContext<ColorModeValue | null>(null);

function useColorModeState(): ColorModeValue {
  // The server renders the default; the inline script has already painted the real choice,
  // and the effect below catches React's state up with it after hydration.
  const [choice, setChoiceState] = useState<ColorModeChoice>(DEFAULT_COLOR_MODE_CHOICE);
  const [systemDark, setSystemDark] = useState(false);
  // Until the stored choice is read, the page must keep what the inline script painted.
  const [synced, setSynced] = useState(false);

  useEffect(() => {
    // A transition: parts of the page still hydrating (the deferred body) keep hydrating instead
    // of being thrown away and rendered again (React error 421).
    startTransition(() => {
      setChoiceState(parseChoice(readStorage(THEME_STORAGE_KEY)));
      setSystemDark(prefersDark());
      setSynced(true);
    });
    return onStorageChange(THEME_STORAGE_KEY, (value) => setChoiceState(parseChoice(value)));
  }, []);

  useEffect(() => {
    if (choice !== "system" || typeof window.matchMedia !== "function") return;
    const query = window.matchMedia(DARK_QUERY);
    const update = () => setSystemDark(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, [choice]);

  const colorMode = resolveColorMode(choice, systemDark);

  useEffect(() => {
    if (synced) applyColorMode(choice, colorMode);
  }, [synced, choice, colorMode]);

  const setChoice = useCallback((next: ColorModeChoice) => {
    writeStorage(THEME_STORAGE_KEY, next);
    setChoiceState(next);
  }, []);

  return useMemo(() => ({ choice, colorMode, setChoice }), [choice, colorMode, setChoice]);
}

export function ColorModeProvider({ children }: { children: ReactNode }) {
  return <ColorModeContext.Provider value={useColorModeState()}>{children}</ColorModeContext.Provider>;
}

export function useColorMode(): ColorModeValue {
  const value = useContext(ColorModeContext);
  if (!value) throw new Error("useColorMode must be used inside <ColorModeProvider>");
  return value;
}
