import type { EnvironmentHosts } from "~/behaviour/environment";
import { escapeHtml, highlightCode } from "./highlight";

/** Languages of a tabbed sample group, in tab order, with their tab labels. */
export const SAMPLE_LANGUAGES = {
  curl: "cURL",
  http: "HTTP",
  elixir: "Elixir",
  python: "Python",
  java: "Java",
  php: "PHP",
} as const;

export type SampleLanguage = keyof typeof SAMPLE_LANGUAGES;

export function isSampleLanguage(language: string | undefined): language is SampleLanguage {
  return language !== undefined && Object.hasOwn(SAMPLE_LANGUAGES, language);
}

export type CodeSample = {
  language: SampleLanguage;
  label: string;
  /** Source with `{{host}}` left in: copying fills in the selected environment's host. */
  code: string;
  /** Highlighted HTML, the host already rendered for every environment (see hostMarkup). */
  html: string;
};

export const HOST_PLACEHOLDER = "{{host}}";
/** Stands in for `{{host}}` while Markdown and the highlighter run: plain letters, so neither splits or escapes it. */
export const HOST_TOKEN = "FLUSSOHOSTPLACEHOLDER";

/**
 * Both hosts, one per environment; CSS keyed on <html data-environment> shows the selected
 * one, so the right host is painted before React has started.
 */
export function hostMarkup(hosts: EnvironmentHosts): string {
  return (
    `<span class="env-host">` +
    `<span data-env="development">${escapeHtml(hosts.development)}</span>` +
    `<span data-env="production">${escapeHtml(hosts.production)}</span></span>`
  );
}

/**
 * `{{host.development}}` and `{{host.production}}`: one environment's host whatever the selection, for the places that
 * name both (the environments table, the FAQ, the OpenAPI page), so that every page shows the same host per environment.
 */
export function fillEnvironmentHosts(text: string, hosts: EnvironmentHosts): string {
  return text.split("{{host.development}}").join(hosts.development).split("{{host.production}}").join(hosts.production);
}

export function fillHost(text: string, host: string): string {
  return text.split(HOST_PLACEHOLDER).join(host);
}

/** One tab of a sample group, for docs pages and for generated reference samples alike. */
export function renderSample(language: SampleLanguage, code: string, hosts: EnvironmentHosts): CodeSample {
  const html = highlightCode(code.split(HOST_PLACEHOLDER).join(HOST_TOKEN), language).split(HOST_TOKEN).join(hostMarkup(hosts));
  return { language, label: SAMPLE_LANGUAGES[language], code, html };
}
