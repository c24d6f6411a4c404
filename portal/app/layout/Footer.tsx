import { Link, useNavigate } from "@remix-run/react";
import { clickedRouterPath } from "~/behaviour/routerPath";
import { ON_SERVER } from "~/reference/onServer";
import { ExternalIcon } from "./Icons";
import { FOOTER_COLUMNS, SITE_LANGUAGE, type FooterLink } from "./site";

const FOOTER_ID = "site-footer";

function FooterItem({ link }: { link: FooterLink }) {
  if (link.href.startsWith("/")) return <Link to={link.href}>{link.label}</Link>;
  return (
    <a href={link.href} target="_blank" rel="noopener noreferrer">
      {link.label}
      <ExternalIcon className="external-icon" />
      <span className="sr-only"> (si apre in una nuova scheda)</span>
    </a>
  );
}

/** In the browser: the footer as the server rendered it, read from the page when it hydrates. */
let serverFooter: string | undefined;

/**
 * The same links on every page: rendered on the server only, and kept as it rendered them (React leaves an element
 * that sets its inner HTML as it finds it when hydrating), so the columns are not in the browser's JavaScript. A shell
 * rendered again in the browser (the error page's) shows the same HTML; its site links still go through the router.
 */
export function Footer() {
  const navigate = useNavigate();
  if (!ON_SERVER) {
    serverFooter ??= document.getElementById(FOOTER_ID)?.innerHTML ?? "";
    return (
      <footer
        id={FOOTER_ID}
        className="footer"
        lang={SITE_LANGUAGE}
        onClick={(event) => {
          const path = clickedRouterPath(event);
          if (!path) return;
          event.preventDefault();
          navigate(path);
        }}
        dangerouslySetInnerHTML={{ __html: serverFooter }}
        suppressHydrationWarning
      />
    );
  }
  return (
    <footer id={FOOTER_ID} className="footer" lang={SITE_LANGUAGE}>
      <div className="footer-columns">
        {FOOTER_COLUMNS.map((column) => (
          <section key={column.title} className="footer-column" aria-labelledby={`footer-${column.title}`}>
            <h2 id={`footer-${column.title}`} className="footer-title">
              {column.title}
            </h2>
            <ul>
              {column.links.map((link) => (
                <li key={link.href}>
                  <FooterItem link={link} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <p className="footer-copyright">© {new Date().getFullYear()} Flusso S.r.l. · Documentazione dell'Integration API</p>
    </footer>
  );
}
