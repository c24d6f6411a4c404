import { Link } from "@remix-run/react";
import { ExternalIcon } from "./Icons";
import { FOOTER_COLUMNS, SITE_LANGUAGE, type FooterLink } from "./site";

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

export function Footer() {
  return (
    <footer className="footer" lang={SITE_LANGUAGE}>
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
