import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useCodeLanguage } from "~/behaviour/codeLanguage";
import { useEnvironment } from "~/behaviour/environment";
import { fillHost, type CodeSample } from "~/docs/samples";

export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Clipboard API refused (permissions, insecure context): fall back below.
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}

/** A "Copia" button that says "Copiato" for a moment after copying. */
export function CopyButton({ getText }: { getText: () => string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <button
      type="button"
      className="copy-button"
      onClick={() => {
        copyText(getText())
          .then(() => {
            setCopied(true);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => setCopied(false), 2000);
          })
          .catch((error: unknown) => console.error("Copia non riuscita", error));
      }}
    >
      {copied ? "Copiato" : "Copia"}
    </button>
  );
}

/**
 * One request shown in several languages, one tab each. The chosen language is shared by
 * every group on the site; copying fills in the selected environment's host.
 */
export function CodeTabs({ samples }: { samples: CodeSample[] }) {
  const { language, setLanguage } = useCodeLanguage();
  const { host } = useEnvironment();
  const baseId = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const selectedIndex = Math.max(
    0,
    samples.findIndex((sample) => sample.language === language),
  );
  const selected = samples[selectedIndex];

  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (selectedIndex + step + samples.length) % samples.length;
    setLanguage(samples[next].language);
    tabs.current[next]?.focus();
  };

  return (
    <div className="code-tabs">
      <div className="code-tabs-header">
        <div role="tablist" aria-label="Linguaggio dell'esempio" className="code-tabs-list" onKeyDown={onKeyDown}>
          {samples.map((sample, index) => (
            <button
              key={sample.language}
              ref={(el) => {
                tabs.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${sample.language}`}
              aria-selected={index === selectedIndex}
              aria-controls={`${baseId}-panel`}
              tabIndex={index === selectedIndex ? 0 : -1}
              className="code-tab"
              data-language={sample.language}
              onClick={() => setLanguage(sample.language)}
            >
              {sample.label}
            </button>
          ))}
        </div>
        <CopyButton getText={() => fillHost(selected.code, host)} />
      </div>
      {/* A sample whose code is still loading (the reference's later languages) has none yet. */}
      <div
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${selected.language}`}
        aria-busy={selected.code === "" ? true : undefined}
        className="code-tabs-panel"
      >
        <pre tabIndex={0}>
          <code className={`hljs language-${selected.language}`} dangerouslySetInnerHTML={{ __html: selected.html }} />
        </pre>
      </div>
    </div>
  );
}
