import { useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { CodeLanguageProvider } from "~/behaviour/codeLanguage";
import { ColorModeProvider } from "~/behaviour/colorMode";
import { EnvironmentProvider, type EnvironmentHosts } from "~/behaviour/environment";
import { MobileSidebarProvider } from "~/behaviour/mobileSidebar";
import type { SidebarItem } from "~/docs/sidebar";
import { AnnouncementBar } from "./AnnouncementBar";
import { DidNotLoadBanner } from "./DidNotLoadBanner";
import { Footer } from "./Footer";
import { SkipToContent } from "./Main";
import { Navbar } from "./Navbar";
import { ProgressBar } from "./ProgressBar";
import { TopBar } from "./TopBar";

export type SiteShellProps = {
  hosts: EnvironmentHosts;
  demoCompanyId?: string | null;
  supportEmail: string;
  sidebar: SidebarItem[];
  children: ReactNode;
};

/** Everything around a page: the bars, navbar and footer, and the site-wide state they share. */
export function SiteShell({ hosts, demoCompanyId, supportEmail, sidebar, children }: SiteShellProps) {
  const { pathname } = useLocation();
  return (
    <ColorModeProvider>
      <EnvironmentProvider hosts={hosts} demoCompanyId={demoCompanyId}>
        <CodeLanguageProvider>
          <MobileSidebarProvider>
            <SkipToContent />
            <ProgressBar />
            {pathname === "/" && <DidNotLoadBanner />}
            <AnnouncementBar />
            <TopBar supportEmail={supportEmail} />
            <Navbar sidebar={sidebar} />
            <div className="site-content">{children}</div>
            <Footer />
          </MobileSidebarProvider>
        </CodeLanguageProvider>
      </EnvironmentProvider>
    </ColorModeProvider>
  );
}
