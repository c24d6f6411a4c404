import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useMobileSidebar } from "~/behaviour/mobileSidebar";
import { usePrefetch } from "~/behaviour/prefetch";
import type { SidebarItem } from "~/docs/sidebar";
import { SearchBox } from "~/search/SearchBox";
import { ColorModeToggle } from "./ColorModeToggle";
import { Logo, MenuIcon } from "./Icons";
import { SITE_LANGUAGE, SITE_TITLE } from "./site";

type Drawer = typeof import("./MobileDrawer").MobileDrawer;

export const NAVBAR_ID = "site-navbar";

function isDocsPath(pathname: string) {
  return !pathname.startsWith("/api-reference");
}

export function Navbar({ sidebar }: { sidebar: SidebarItem[] }) {
  const mobileSidebar = useMobileSidebar();
  const { pathname } = useLocation();
  const prefetch = usePrefetch("intent");
  const menuButton = useRef<HTMLButtonElement>(null);
  // The drawer's code loads once the layout is the mobile one, not with every page: a desktop window never opens it.
  const [Drawer, setDrawer] = useState<Drawer | null>(null);
  const needsDrawer = mobileSidebar.isMobile || mobileSidebar.shown;
  useEffect(() => {
    if (needsDrawer && !Drawer) void import("./MobileDrawer").then((module) => setDrawer(() => module.MobileDrawer));
  }, [needsDrawer, Drawer]);

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
      {Drawer ? <Drawer sidebar={sidebar} menuButton={menuButton} shown={mobileSidebar.shown} close={mobileSidebar.close} /> : null}
    </header>
  );
}
