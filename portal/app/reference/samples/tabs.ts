/** The six languages of the docs, in the tab order the docs pages use too. */
export const SAMPLE_TABS = [
  { id: "curl", label: "cURL" },
  { id: "http", label: "HTTP" },
  { id: "elixir", label: "Elixir" },
  { id: "python", label: "Python" },
  { id: "java", label: "Java" },
  { id: "php", label: "PHP" },
] as const;

export type SampleId = (typeof SAMPLE_TABS)[number]["id"];

export const isSampleId = (language: string): language is SampleId => SAMPLE_TABS.some((tab) => tab.id === language);
