import { PrefetchPageLinks, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useState, type MouseEvent } from "react";
import { useEnvironment } from "~/behaviour/environment";
import { clickedRouterPath, routerPath } from "~/behaviour/routerPath";
import { usePrefetch } from "~/behaviour/prefetch";
import { CodeTabs, copyText } from "~/layout/CodeTabs";
import type { DocBlock } from "./markdown";

/** Text of a plain code block as the reader sees it: only the selected environment's host. */
export function visibleCode(code: HTMLElement, environment: string): string {
  const copy = code.cloneNode(true) as HTMLElement;
  copy.querySelectorAll(`.env-host [data-env]:not([data-env="${environment}"])`).forEach((el) => el.remove());
  return copy.textContent ?? "";
}

function Blocks({ blocks }: { blocks: DocBlock[] }) {
  return (
    <>
      {blocks.map((block, index) => {
        if (block.kind === "samples") return <CodeTabs key={index} samples={block.samples} />;
        if (block.kind === "admonition")
          return (
            <div key={index} className={`admonition admonition-${block.type}`} role="note">
              <p className="admonition-title">{block.title}</p>
              <Blocks blocks={block.blocks} />
            </div>
          );
        return <div key={index} className="markdown-block" dangerouslySetInnerHTML={{ __html: block.html }} />;
      })}
    </>
  );
}

/**
 * A rendered page body. Clicks inside the server-rendered HTML are delegated: page links go
 * through the router (with prefetch on hover), copy buttons copy their code block.
 */
export function DocContent({ blocks }: { blocks: DocBlock[] }) {
  const navigate = useNavigate();
  const { hash } = useLocation();
  const { environment } = useEnvironment();
  const prefetch = usePrefetch("intent");
  const [hovered, setHovered] = useState<string | null>(null);

  // The body can arrive after the router tried to scroll to the anchor: try again now it is here.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const copyButton = target.closest<HTMLButtonElement>("button[data-copy-code]");
    if (copyButton) {
      const code = copyButton.parentElement?.querySelector("code");
      if (!code) return;
      void copyText(visibleCode(code, environment)).then(() => {
        copyButton.textContent = "Copiato";
        setTimeout(() => (copyButton.textContent = "Copia"), 2000);
      });
      return;
    }
    const path = clickedRouterPath(event);
    if (!path) return;
    event.preventDefault();
    navigate(path);
  };

  const onMouseOver = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = (event.target as HTMLElement).closest("a");
    const path = anchor && routerPath(anchor)?.split(/[?#]/)[0];
    if (path) setHovered(path);
  };

  return (
    <div className="markdown" onClick={onClick} onMouseOver={onMouseOver}>
      <Blocks blocks={blocks} />
      {hovered && prefetch !== "none" && <PrefetchPageLinks page={hovered} />}
    </div>
  );
}
