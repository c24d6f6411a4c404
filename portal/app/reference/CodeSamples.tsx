import { CodeTabs } from "~/layout/CodeTabs";
import { useEnvironment } from "~/behaviour/environment";
import type { RequestExample } from "./model";
import { codeSamples } from "./samples";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A typed key as the page shows it: enough to recognise it, not enough to read it off the screen. */
export function maskKey(key: string): string {
  return key.length <= 12 ? "•".repeat(key.length) : `${key.slice(0, 8)}${"•".repeat(8)}${key.slice(-4)}`;
}

/**
 * The six samples of an operation in the site's tabbed sample group. They are generated on render
 * for the selected environment's host (the raw HTTP sample needs the bare host name, which the
 * docs' `{{host}}` placeholder cannot give), and left unhighlighted so no highlighter ships to the
 * browser. Without a key they read it from `FLUSSO_API_KEY`; with the key typed in the try-it panel
 * the copy holds it and the page shows it masked.
 */
export function CodeSamples({ example, apiKey }: { example: RequestExample; apiKey?: string }) {
  const { host } = useEnvironment();
  const shown = apiKey ? codeSamples(example, host, maskKey(apiKey)) : undefined;
  const samples = codeSamples(example, host, apiKey).map((sample, index) => ({
    language: sample.id,
    label: sample.label,
    code: sample.code,
    html: escapeHtml((shown?.[index] ?? sample).code),
  }));
  return <CodeTabs samples={samples} />;
}
