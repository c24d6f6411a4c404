import { DOC_PAGES } from "~/content/pages";
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

// The pages of the content list (vite.config.ts stops the build when it and the folder disagree).
const docs = new Map<string, DocSource>(
  DOC_PAGES.map((path) => {
    const source = files[`../content/${path}.md`];
    if (source === undefined) throw new Error(`app/content/pages.ts lists "${path}" but app/content/${path}.md does not exist`);
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
