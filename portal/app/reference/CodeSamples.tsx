import { CodeTabs } from "~/layout/CodeTabs";
import { useCodeLanguage } from "~/behaviour/codeLanguage";
import { useEnvironment } from "~/behaviour/environment";
import type { RequestExample } from "./model";
import { useSampleGenerators } from "./samples/onDemand";
import { sampleRequest } from "./samples/request";
import { SAMPLE_TABS } from "./samples/tabs";

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
 * the copy holds it and the page shows it masked. A language other than the first is generated once
 * its generator has loaded (samples/onDemand.ts): until then its tab is empty and marked busy.
 */
export function CodeSamples({ example, apiKey }: { example: RequestExample; apiKey?: string }) {
  const { host } = useEnvironment();
  const { language } = useCodeLanguage();
  const generators = useSampleGenerators(language);
  const request = sampleRequest(example, host, apiKey);
  const shown = apiKey ? sampleRequest(example, host, maskKey(apiKey)) : request;
  const samples = SAMPLE_TABS.map((tab) => {
    const generate = generators[tab.id];
    return {
      language: tab.id,
      label: tab.label,
      code: generate ? generate(request) : "",
      html: generate ? escapeHtml(generate(shown)) : "",
    };
  });
  return <CodeTabs samples={samples} />;
}
