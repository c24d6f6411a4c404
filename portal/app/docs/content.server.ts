import { includeFiles, parseFrontMatter, type FrontMatter } from "./markdown";
import { buildSidebar, type SidebarItem } from "./sidebar";

// Bundled into the server build: the content travels with it, and a rebuild picks up edits.
const files = import.meta.glob<string>("../content/**/*.md", { query: "?raw", import: "default", eager: true });
// Programs the pages include whole (see includeFiles), keyed by their path under content/.
const included = Object.fromEntries(
  Object.entries(import.meta.glob<string>("../content/examples/**/*", { query: "?raw", import: "default", eager: true })).map(
    ([file, text]) => [file.replace(/^\.\.\/content\//, ""), text],
  ),
);

export type DocSource = { path: string; data: FrontMatter; body: string };

const docs = new Map<string, DocSource>(
  Object.entries(files).map(([file, source]) => {
    const path = file.replace(/^\.\.\/content\//, "").replace(/\.md$/, "");
    const { data, body } = parseFrontMatter(source, path);
    return [path, { path, data, body: includeFiles(body, included, path) }];
  }),
);

export function getDoc(path: string): DocSource | undefined {
  return docs.get(path);
}

const sidebar = buildSidebar([...docs.values()]);

export function getDocsSidebar(): SidebarItem[] {
  return sidebar;
}
