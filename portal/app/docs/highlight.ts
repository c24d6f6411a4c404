import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import elixir from "highlight.js/lib/languages/elixir";
import http from "highlight.js/lib/languages/http";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

// Only the languages the docs use: the full highlight.js set would triple the server bundle.
for (const [name, language] of Object.entries({ bash, elixir, http, java, javascript, json, php, python, typescript, xml, yaml })) {
  hljs.registerLanguage(name, language);
}

const ALIASES: Record<string, string> = {
  curl: "bash",
  sh: "bash",
  shell: "bash",
  console: "bash",
  js: "javascript",
  ts: "typescript",
  html: "xml",
  yml: "yaml",
  ex: "elixir",
  exs: "elixir",
  py: "python",
};

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Highlighted HTML for `code`; languages it does not know come back escaped, uncoloured. */
export function highlightCode(code: string, language: string | undefined): string {
  const name = language ? (ALIASES[language] ?? language) : undefined;
  if (name && hljs.getLanguage(name)) return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  return escapeHtml(code);
}
