import { useState } from "react";
import { Main } from "~/layout/Main";
import { SITE_LANGUAGE } from "~/layout/site";
import { tagAnchor } from "./anchor";
import { INSOMNIA_URL, POSTMAN_URL } from "./collections";
import type { ReferenceModel } from "./model";
import { Operation } from "./Operation";
import { ReferenceSidebar } from "./ReferenceSidebar";
import { ON_SERVER } from "./onServer";
import { ServerRendered } from "./serverRendered";
import { useActiveOperation } from "./useActiveOperation";
import { useScrollToOperation } from "./useScrollToOperation";

/** The reference's own layout: a 300 px sidebar of tags and operations beside the operations. */
export function ReferenceLayout({ model }: { model: ReferenceModel }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const activeAnchor = useActiveOperation();
  useScrollToOperation();

  return (
    <div className="ref-layout">
      <button
        type="button"
        className="ref-menu-toggle"
        lang={SITE_LANGUAGE}
        aria-expanded={menuOpen}
        aria-controls="reference-sidebar"
        onClick={() => setMenuOpen(!menuOpen)}
      >
        {menuOpen ? "Chiudi" : "Menu"}
      </button>
      <ReferenceSidebar tags={model.tags} activeAnchor={activeAnchor} open={menuOpen} onNavigate={() => setMenuOpen(false)} />
      <Main className="ref-content">
        <ServerRendered as="header" className="ref-intro">
          {ON_SERVER ? (
            <>
              <h1>
                {model.title} <span className="ref-version">{model.version}</span>
              </h1>
              {model.description ? <div className="ref-description" dangerouslySetInnerHTML={{ __html: model.description }} /> : null}
              <p className="ref-downloads" lang={SITE_LANGUAGE}>
                Scarica la specifica:{" "}
                <a href="/openapi.json" download>
                  OpenAPI JSON
                </a>{" "}
                ·{" "}
                <a href="/openapi.yaml" download>
                  OpenAPI YAML
                </a>{" "}
                · <a href={POSTMAN_URL}>Collezione Postman</a> · <a href={INSOMNIA_URL}>File Insomnia</a> ·{" "}
                <a href="/api-reference.md" type="text/markdown">
                  Markdown
                </a>
              </p>
            </>
          ) : null}
        </ServerRendered>
        {model.tags.map((tag) => (
          <section key={tag.name} className="ref-tag" aria-labelledby={tagAnchor(tag.name)}>
            <h2 id={tagAnchor(tag.name)}>{tag.name}</h2>
            {tag.description ? <div className="ref-description" dangerouslySetInnerHTML={{ __html: tag.description }} /> : null}
            {tag.operations.map((operation) => (
              <Operation key={operation.id} operation={operation} schemas={model.schemas} />
            ))}
          </section>
        ))}
      </Main>
    </div>
  );
}
