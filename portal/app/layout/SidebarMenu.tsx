import { Link, useLocation } from "@remix-run/react";
import { useEffect, useId } from "react";
import { useCollapsible } from "~/behaviour/collapsible";
import { usePrefetch } from "~/behaviour/prefetch";
import { samePath, type SidebarCategory, type SidebarItem, type SidebarLink } from "~/docs/sidebar";
import { Collapsible } from "./Collapsible";
import { ChevronIcon } from "./Icons";

function MenuLink({ item }: { item: SidebarLink }) {
  const { pathname } = useLocation();
  const prefetch = usePrefetch("intent");
  const active = samePath(pathname, item.href);
  return (
    <li>
      <Link
        to={item.href}
        prefetch={prefetch}
        className={active ? "menu-link active" : "menu-link"}
        aria-current={active ? "page" : undefined}
      >
        {item.label}
      </Link>
    </li>
  );
}

function MenuCategory({ category }: { category: SidebarCategory }) {
  const { pathname } = useLocation();
  const containsActive = category.items.some((item) => samePath(pathname, item.href));
  const { collapsed, setCollapsed, toggle } = useCollapsible(!containsActive);
  const listId = useId();

  // Arriving on one of its pages opens the category; leaving it never closes it by surprise.
  useEffect(() => {
    if (containsActive) setCollapsed(false);
  }, [containsActive, setCollapsed]);

  return (
    <li className="menu-category">
      <button type="button" className="menu-category-toggle" aria-expanded={!collapsed} aria-controls={listId} onClick={toggle}>
        {category.label}
        <ChevronIcon className="menu-chevron" />
      </button>
      <Collapsible collapsed={collapsed} id={listId}>
        <ul className="menu-list">
          {category.items.map((item) => (
            <MenuLink key={item.href} item={item} />
          ))}
        </ul>
      </Collapsible>
    </li>
  );
}

/** The docs sidebar's list, shared by the desktop sidebar and the mobile drawer. */
export function SidebarMenu({ items }: { items: SidebarItem[] }) {
  return (
    <ul className="menu-list">
      {items.map((item) =>
        item.type === "link" ? <MenuLink key={item.href} item={item} /> : <MenuCategory key={item.label} category={item} />,
      )}
    </ul>
  );
}

/** The desktop docs sidebar (wider than 996 px): always shown, no way to hide it. */
export function DocsSidebar({ items }: { items: SidebarItem[] }) {
  return (
    <aside className="docs-sidebar">
      <nav aria-label="Documentazione" className="docs-sidebar-nav">
        <SidebarMenu items={items} />
      </nav>
    </aside>
  );
}
