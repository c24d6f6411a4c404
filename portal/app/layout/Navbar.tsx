import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, type KeyboardEvent, type RefObject } from "react";
import { useMobileSidebar } from "~/behaviour/mobileSidebar";
import { usePrefetch } from "~/behaviour/prefetch";
import type { SidebarItem } from "~/docs/sidebar";
import { SearchBox } from "~/search/SearchBox";
import { ColorModeToggle } from "./ColorModeToggle";
import { CloseIcon, Logo, MenuIcon } from "./Icons";
import { SidebarMenu } from "./SidebarMenu";
import { SITE_LANGUAGE, SITE_TITLE } from "./site";

export const NAVBAR_ID = "site-navbar";

function isDocsPath(pathname: string) {
  return !pathname.startsWith("/api-reference");
}

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

function MobileDrawer({ sidebar, menuButton }: { sidebar: SidebarItem[]; menuButton: RefObject<HTMLButtonElement> }) {
  const { shown, close } = useMobileSidebar();
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

export function Navbar({ sidebar }: { sidebar: SidebarItem[] }) {
  const mobileSidebar = useMobileSidebar();
  const { pathname } = useLocation();
  const prefetch = usePrefetch("intent");
  const menuButton = useRef<HTMLButtonElement>(null);

  return (
    <header className="navbar" id={NAVBAR_ID} lang={SITE_LANGUAGE}>
      <nav className="navbar-inner" aria-label="Principale">
        <button
          ref={menuButton}
          type="button"
          className="icon-button navbar-menu-button"
          onClick={mobileSidebar.toggle}
          aria-label="Apri il menu della documentazione"
          aria-expanded={mobileSidebar.shown}
        >
          <MenuIcon />
        </button>
        <Link to="/" className="navbar-brand" prefetch={prefetch}>
          <Logo />
          <span className="navbar-brand-text">{SITE_TITLE}</span>
        </Link>
        <div className="navbar-items">
          <Link
            to="/"
            prefetch={prefetch}
            className={isDocsPath(pathname) ? "navbar-link active" : "navbar-link"}
            onClick={(event) => {
              // In the mobile layout the docs sidebar lives in the drawer: open it instead of leaving.
              if (mobileSidebar.isMobile) {
                event.preventDefault();
                mobileSidebar.toggle();
              }
            }}
          >
            Documentazione
          </Link>
          <NavLink to="/api-reference/" prefetch={prefetch} className={({ isActive }) => (isActive ? "navbar-link active" : "navbar-link")}>
            API Reference
          </NavLink>
        </div>
        <div className="navbar-end">
          <SearchBox />
          <ColorModeToggle />
        </div>
      </nav>
      <MobileDrawer sidebar={sidebar} menuButton={menuButton} />
    </header>
  );
}
