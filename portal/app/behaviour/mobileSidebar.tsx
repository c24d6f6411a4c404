import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useLocation } from "@remix-run/react";
import { useWindowSize } from "./windowSize";

type MobileSidebarValue = {
  /** The drawer exists only in the mobile layout; on desktop the sidebar is always there. */
  disabled: boolean;
  /** Known only after mount; false during server rendering. */
  isMobile: boolean;
  shown: boolean;
  toggle: () => void;
  close: () => void;
};

const MobileSidebarContext = createContext<MobileSidebarValue | null>(null);

export function MobileSidebarProvider({ children }: { children: ReactNode }) {
  const windowSize = useWindowSize();
  const disabled = windowSize === "desktop";
  const isMobile = windowSize === "mobile";
  const [shown, setShown] = useState(false);
  const { pathname, hash } = useLocation();
  const location = pathname + hash;
  const [shownAt, setShownAt] = useState(location);

  // Following a link in the drawer closes it, and so does growing the window to desktop: adjusted while rendering,
  // so the drawer never paints open over the next page.
  if (shownAt !== location) {
    setShownAt(location);
    setShown(false);
  }
  if (disabled && shown) setShown(false);

  useEffect(() => {
    if (!shown) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setShown(false);
    };
    document.body.style.overflow = "hidden";
    window.addEventListener("keydown", onKey);
    return () => {
      document.body.style.overflow = "";
      window.removeEventListener("keydown", onKey);
    };
  }, [shown]);

  const toggle = useCallback(() => setShown((value) => !value), []);
  const close = useCallback(() => setShown(false), []);
  const value = useMemo(() => ({ disabled, isMobile, shown, toggle, close }), [disabled, isMobile, shown, toggle, close]);
  return <MobileSidebarContext.Provider value={value}>{children}</MobileSidebarContext.Provider>;
}

export function useMobileSidebar(): MobileSidebarValue {
  const value = useContext(MobileSidebarContext);
  if (!value) throw new Error("useMobileSidebar must be used inside <MobileSidebarProvider>");
  return value;
}
