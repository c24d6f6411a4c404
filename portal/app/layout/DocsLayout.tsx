import type { ReactNode } from "react";
import type { SidebarItem } from "~/docs/sidebar";
import { Main } from "./Main";
import { DocsSidebar } from "./SidebarMenu";

/** Docs pages: the sidebar on the left (desktop), the page in the middle. */
export function DocsLayout({ sidebar, children }: { sidebar: SidebarItem[]; children: ReactNode }) {
  return (
    <div className="docs-layout">
      <DocsSidebar items={sidebar} />
      <Main className="docs-main">{children}</Main>
    </div>
  );
}
