import { SITE_LANGUAGE } from "./site";
import { useId } from "react";
import { useActiveHeading } from "~/behaviour/activeHeading";
import { useCollapsible } from "~/behaviour/collapsible";
import type { TocItem } from "~/docs/markdown";
import { Collapsible } from "./Collapsible";
import { ChevronIcon } from "./Icons";

export const TOC_MIN_LEVEL = 2;
export const TOC_MAX_LEVEL = 3;

type TocNode = TocItem & { children: TocItem[] };

/** Nests each h3 under the h2 before it; anything outside levels 2–3 is left out. */
export function nestToc(items: TocItem[]): TocNode[] {
  const nodes: TocNode[] = [];
  for (const item of items) {
    if (item.level < TOC_MIN_LEVEL || item.level > TOC_MAX_LEVEL) continue;
    const parent = nodes[nodes.length - 1];
    if (item.level === 3 && parent) parent.children.push(item);
    else nodes.push({ ...item, children: [] });
  }
  return nodes;
}

function TocLink({ item, active }: { item: TocItem; active: string | null }) {
  const current = item.id === active;
  return (
    <a href={`#${item.id}`} className={current ? "active" : undefined} aria-current={current ? "location" : undefined}>
      {item.text}
    </a>
  );
}

function TocList({ items, active = null }: { items: TocItem[]; active?: string | null }) {
  const nodes = nestToc(items);
  return (
    <ul className="toc-list">
      {nodes.map((node) => (
        <li key={node.id} data-level={node.level}>
          <TocLink item={node} active={active} />
          {node.children.length > 0 && (
            <ul className="toc-list">
              {node.children.map((child) => (
                <li key={child.id} data-level={child.level}>
                  <TocLink item={child} active={active} />
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The desktop table of contents, beside the article; the section being read is highlighted. */
export function TableOfContents({ items }: { items: TocItem[] }) {
  const active = useActiveHeading(items.map((item) => item.id));
  if (items.length === 0) return null;
  return (
    <nav className="toc" aria-label="In questa pagina">
      <p className="toc-title" lang={SITE_LANGUAGE}>
        In questa pagina
      </p>
      <TocList items={items} active={active} />
    </nav>
  );
}

/** The mobile table of contents: a collapsed panel above the article. */
export function TableOfContentsMobile({ items }: { items: TocItem[] }) {
  const { collapsed, toggle } = useCollapsible(true);
  const panelId = useId();
  if (items.length === 0) return null;
  return (
    <nav className="toc-mobile" aria-label="In questa pagina (mobile)">
      <button type="button" className="toc-mobile-toggle" aria-expanded={!collapsed} aria-controls={panelId} onClick={toggle}>
        In questa pagina
        <ChevronIcon className="menu-chevron" />
      </button>
      <Collapsible collapsed={collapsed} id={panelId}>
        <TocList items={items} />
      </Collapsible>
    </nav>
  );
}
