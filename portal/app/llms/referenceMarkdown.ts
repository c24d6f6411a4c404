import { exampleAs, exampleMediaTypes, type OperationView, type ParameterView, type ReferenceModel } from "~/reference/model";
import { codeSamples } from "~/reference/samples";
import { typeLabel, type SchemaNode } from "~/reference/schema";

/**
 * The API reference as one Markdown document, for language models and for reading as text.
 * Expects a model built with descriptions left as Markdown. Named schemas are written once, in
 * their own section, and referred to by name.
 */
export function referenceMarkdown(model: ReferenceModel, host: string): string {
  const lines = [
    `# ${model.title} ${model.version}`,
    "",
    ...(model.description ? [model.description, ""] : []),
    `Every request is sent to \`${host}\` over HTTPS with the header \`Authorization: Bearer <API key>\`.`,
    "",
  ];
  for (const tag of model.tags) {
    lines.push(`## ${tag.name}`, "");
    if (tag.description) lines.push(tag.description, "");
    for (const operation of tag.operations) lines.push(...operationMarkdown(operation, host), "");
  }
  const names = Object.keys(model.schemas);
  if (names.length > 0) {
    lines.push("## Schemas", "");
    for (const name of names) lines.push(`### ${name}`, "", ...schemaLines(model.schemas[name], 0), "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

function operationMarkdown(operation: OperationView, host: string): string[] {
  const endpoint = operation.webhook
    ? `Webhook: Flusso sends \`${operation.method}\` to the integrator's endpoint`
    : `\`${operation.method} ${operation.path}\``;
  const lines = [`### ${operation.summary}`, "", `${endpoint} (operationId \`${operation.id}\`)`, ""];
  if (operation.description) lines.push(operation.description, "");
  if (operation.parameters.length > 0) {
    lines.push("| Parameter | In | Type | Required | Description |", "| --- | --- | --- | --- | --- |");
    lines.push(...operation.parameters.map(parameterRow), "");
  }
  if (operation.list) {
    const { filters, sorts, expansions } = operation.list;
    if (filters.length) lines.push(`Filters: ${filters.map((f) => `\`${f.field}\` (${f.operators.join(", ")})`).join("; ")}.`);
    if (sorts.length) lines.push(`Sort fields: ${sorts.map((s) => `\`${s}\``).join(", ")}.`);
    if (operation.list.defaultSort) lines.push(`Default sort: \`${operation.list.defaultSort}\`.`);
    if (expansions.length) lines.push(`Expansions: ${expansions.map((e) => `\`${e}\``).join(", ")}.`);
    lines.push("");
  }
  if (operation.requestBody) {
    const body = operation.requestBody;
    const named = (body.mediaTypes?.map((media) => media.contentType) ?? [body.contentType]).map((type) => `\`${type}\``);
    const types = named.length > 1 ? `${named.slice(0, -1).join(", ")} or ${named[named.length - 1]}` : named[0];
    lines.push(`Request body (${types}${body.required ? ", required" : ""}): ${body.schema ? schemaRef(body.schema) : "any"}.`, "");
    if (body.schema && body.schema.kind !== "ref") lines.push(...schemaLines(body.schema, 0), "");
  }
  lines.push("Responses:", "");
  for (const response of operation.responses) {
    const schema = response.schema ? ` — ${schemaRef(response.schema)}` : "";
    lines.push(`- \`${response.status}\` ${response.description ?? ""}${schema}`);
    for (const header of response.headers ?? []) {
      const when = header.required ? "always" : "sometimes";
      lines.push(
        `  - header \`${header.name}\` (${typeLabel(header.schema)}, ${when})${header.description ? `: ${header.description}` : ""}`,
      );
    }
  }
  if (operation.webhook) {
    lines.push("", "Example payload:", "", "```json", JSON.stringify(operation.example.body, null, 2), "```");
  } else {
    const types = exampleMediaTypes(operation);
    if (!types) lines.push("", "Example:", "", "```curl", codeSamples(operation.example, host)[0].code, "```");
    for (const type of types ?? [])
      lines.push("", `Example (\`${type}\`):`, "", "```curl", codeSamples(exampleAs(operation, type), host)[0].code, "```");
  }
  return lines;
}

function parameterRow(parameter: ParameterView): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n+/g, " ");
  return `| \`${parameter.name}\` | ${parameter.in} | ${cell(typeLabel(parameter.schema))} | ${parameter.required ? "yes" : "no"} | ${cell(
    parameter.description ?? "",
  )} |`;
}

const schemaRef = (node: SchemaNode) => (node.kind === "ref" ? `[${node.name}](#${node.name.toLowerCase()})` : `\`${typeLabel(node)}\``);

/** Nested bullets for a schema's members; references stay names, so the list is finite. */
function schemaLines(node: SchemaNode, depth: number): string[] {
  const indent = "  ".repeat(depth);
  const facts = (n: SchemaNode) =>
    [n.description, n.enum?.length ? `One of ${n.enum.map((v) => `\`${JSON.stringify(v)}\``).join(", ")}.` : "", ...(n.constraints ?? [])]
      .filter(Boolean)
      .join(" ");
  switch (node.kind) {
    case "object":
      return node.properties.flatMap((property) => {
        const required = property.required ? ", required" : "";
        const text = facts(property.schema);
        return [
          `${indent}- \`${property.name}\` (${typeLabel(property.schema)}${required})${text ? `: ${text}` : ""}`,
          ...childLines(property.schema, depth + 1),
        ];
      });
    case "union":
      return node.options.flatMap((option) => [`${indent}- ${node.combinator}: ${typeLabel(option)}`, ...childLines(option, depth + 1)]);
    case "array":
      return childLines(node.items, depth);
    default:
      return facts(node) ? [`${indent}${facts(node)}`] : [];
  }
}

function childLines(node: SchemaNode, depth: number): string[] {
  if (node.kind === "object" || node.kind === "union") return schemaLines(node, depth);
  if (node.kind === "array") return childLines(node.items, depth);
  return [];
}
