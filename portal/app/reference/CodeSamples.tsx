import { CodeTabs } from "~/layout/CodeTabs";
import { useEnvironment } from "~/behaviour/environment";
import type { RequestExample } from "./model";
import { codeSamples } from "./samples";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The six samples of an operation in the site's tabbed sample group. They are generated on render
 * for the selected environment's host (the raw HTTP sample needs the bare host name, which the
 * docs' `{{host}}` placeholder cannot give), and left unhighlighted so no highlighter ships to the
 * browser.
 */
export function CodeSamples({ example }: { example: RequestExample }) {
  const { host } = useEnvironment();
  const samples = codeSamples(example, host).map((sample) => ({
    language: sample.id,
    label: sample.label,
    code: sample.code,
    html: escapeHtml(sample.code),
  }));
  return <CodeTabs samples={samples} />;
}
