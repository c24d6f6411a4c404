export interface LlmsLink {
  title: string;
  /** Absolute URL of the page's Markdown version. */
  url: string;
  description?: string;
}

/** /llms.txt in the llmstxt.org format: a title, a summary, then sections of links. */
export function llmsTxt({
  title,
  summary,
  details,
  sections,
}: {
  title: string;
  summary: string;
  details: string;
  sections: Array<{ name: string; links: LlmsLink[] }>;
}): string {
  const lines = [`# ${title}`, "", `> ${summary}`, "", details, ""];
  for (const section of sections) {
    lines.push(`## ${section.name}`, "");
    lines.push(...section.links.map((link) => `- [${link.title}](${link.url})${link.description ? `: ${link.description}` : ""}`), "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
