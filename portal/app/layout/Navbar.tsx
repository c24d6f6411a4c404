import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
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

function MobileDrawer({ sidebar }: { sidebar: SidebarItem[] }) {
  const { shown, close } = useMobileSidebar();
  const panel = useRef<HTMLDivElement>(null);

  // Move focus into the drawer when it opens, so keyboard and screen-reader users land in it.
  useEffect(() => {
    if (shown) panel.current?.querySelector<HTMLElement>("a, button")?.focus();
  }, [shown]);

  return (
    <div className={shown ? "mobile-drawer open" : "mobile-drawer"} hidden={!shown}>
      <div className="mobile-drawer-backdrop" onClick={close} aria-hidden />
      <div ref={panel} className="mobile-drawer-panel" role="dialog" aria-modal="true" aria-label="Menu della documentazione">
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

  return (
    <header className="navbar" id={NAVBAR_ID} lang={SITE_LANGUAGE}>
      <nav className="navbar-inner" aria-label="Principale">
        <button
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
      <MobileDrawer sidebar={sidebar} />
    </header>
  );
}
