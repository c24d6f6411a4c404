import { Link } from "@remix-run/react";
import { useEffect, useRef, type KeyboardEvent, type RefObject } from "react";
import type { SidebarItem } from "~/docs/sidebar";
import { CloseIcon, Logo } from "./Icons";
import { SidebarMenu } from "./SidebarMenu";
import { SITE_TITLE } from "./site";

/** A modal dialog keeps Tab and Shift+Tab among its own controls instead of reaching the page behind it. */
function keepFocusInside(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== "Tab") return;
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>("a[href], button:not([disabled])")].filter(
    (element) => element.getClientRects().length > 0,
  );
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * The docs sidebar as a modal panel over the page, in the mobile layout (the Navbar loads it then, and gives it the
 * state of useMobileSidebar: importing that here would tie this module to the root route's).
 */
export function MobileDrawer({
  sidebar,
  menuButton,
  shown,
  close,
}: {
  sidebar: SidebarItem[];
  menuButton: RefObject<HTMLButtonElement>;
  shown: boolean;
  close: () => void;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const wasShown = useRef(false);

  // Move focus into the drawer when it opens, so keyboard and screen-reader users land in it; when it closes
  // (Escape, the close button, the backdrop, a link) with focus inside, give it back to the menu button rather
  // than leave it on the hidden panel, which drops it to the top of the document.
  useEffect(() => {
    if (shown) panel.current?.querySelector<HTMLElement>("a, button")?.focus();
    else if (wasShown.current) {
      const focused = document.activeElement;
      if (!focused || focused === document.body || panel.current?.contains(focused)) menuButton.current?.focus();
    }
    wasShown.current = shown;
  }, [shown, menuButton]);

  return (
    <div className={shown ? "mobile-drawer open" : "mobile-drawer"} hidden={!shown}>
      <div className="mobile-drawer-backdrop" onClick={close} aria-hidden />
      <div
        ref={panel}
        className="mobile-drawer-panel"
        role="dialog"
        aria-modal="true"
        aria-label="Menu della documentazione"
        onKeyDown={keepFocusInside}
      >
        <div className="mobile-drawer-header">
          <Link to="/" className="navbar-brand">
            <Logo />
            <span>{SITE_TITLE}</span>
          </Link>
          <button type="button" className="icon-button" onClick={close} aria-label="Chiudi il menu">
            <CloseIcon />
          </button>
        </div>
        <nav aria-label="Documentazione (mobile)" className="mobile-drawer-nav">
          <p className="mobile-drawer-title">Documentazione</p>
          <SidebarMenu items={sidebar} />
          <p className="mobile-drawer-title">API</p>
          <ul className="menu-list">
            <li>
              <Link to="/api-reference/" className="menu-link">
                API Reference
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </div>
  );
}
