import { SITE_LANGUAGE } from "./site";
import type { ReactNode } from "react";

/** Target of the skip-to-content link; every page renders exactly one. */
export const MAIN_CONTENT_ID = "main-content";

export function Main({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={className ? `main ${className}` : "main"}>
      {children}
    </main>
  );
}

export function SkipToContent() {
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className="skip-to-content" lang={SITE_LANGUAGE}>
      Vai al contenuto principale
    </a>
  );
}
