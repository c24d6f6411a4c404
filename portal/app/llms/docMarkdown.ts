import type { EnvironmentHosts } from "~/behaviour/environment";
import { fillEnvironmentHosts } from "~/docs/samples";

/** A docs page as Markdown for readers that want text: title, summary, body with placeholders filled. */
export function docMarkdown(
  page: { title: string; description?: string; body: string },
  values: { hosts: EnvironmentHosts; host: string; email: string },
): string {
  const body = fillEnvironmentHosts(page.body, values.hosts)
    .replace(/\{\{host\}\}/g, values.host)
    .replace(/\{\{email\}\}/g, values.email)
    .replace(/^:::(note|tip|info|warning|danger)[ \t]*(.*)\n([\s\S]*?)^:::[ \t]*$/gm, (_, type: string, title: string, text: string) =>
      admonition(type, title, text),
    );
  const head = [`# ${page.title}`, "", ...(page.description ? [`> ${page.description}`, ""] : [])];
  return `${[...head, body.trim()].join("\n")}\n`;
}

/** Admonitions are a site extension; plain Markdown readers get them as a quoted paragraph. */
function admonition(type: string, title: string, text: string): string {
  const heading = `**${title.trim() || type[0].toUpperCase() + type.slice(1)}**`;
  return [heading, "", ...text.trimEnd().split("\n")].map((line) => (line ? `> ${line}` : ">")).join("\n");
}
