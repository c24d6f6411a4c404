import type { FrontMatter } from "./markdown";
import { docUrl } from "./urls";

export { docUrl, samePath } from "./urls";

export type SidebarLink = { type: "link"; label: string; href: string; docPath: string };
export type SidebarCategory = { type: "category"; label: string; items: SidebarLink[] };
export type SidebarItem = SidebarLink | SidebarCategory;

/**
 * Orders pages by `sidebar_position`; pages sharing a `sidebar_category` form one
 * category, placed where its first page would be.
 */
export function buildSidebar(docs: { path: string; data: FrontMatter }[]): SidebarItem[] {
  const sorted = [...docs].sort((a, b) => a.data.sidebar_position - b.data.sidebar_position || a.path.localeCompare(b.path));
  const items: SidebarItem[] = [];
  const categories = new Map<string, SidebarCategory>();
  for (const { path, data } of sorted) {
    const link: SidebarLink = { type: "link", label: data.sidebar_label, href: docUrl(path), docPath: path };
    const name = data.sidebar_category;
    if (!name) {
      items.push(link);
      continue;
    }
    let category = categories.get(name);
    if (!category) {
      category = { type: "category", label: name, items: [] };
      categories.set(name, category);
      items.push(category);
    }
    category.items.push(link);
  }
  return items;
}

/** Pages in reading order, for the previous/next links under each page. */
export function flattenSidebar(items: SidebarItem[]): SidebarLink[] {
  return items.flatMap((item) => (item.type === "link" ? [item] : item.items));
}
