import type { ReactNode } from "react";
import { typeLabel, type PropertyNode, type SchemaFacts, type SchemaNode } from "./schema";

type Schemas = Record<string, SchemaNode>;

/**
 * A schema as nested, collapsible lists. Built from <details> so it explores without JavaScript
 * and hydrates with no state of its own. `$ref`s expand in place; a reference to a schema that is
 * already being expanded higher up is shown as recursive instead.
 *
 * Only the lists carry a class: a property is styled by its place in one (reference.css), since the
 * reference renders thousands of them and their classes were a third of its HTML. For the same reason
 * a text made of parts is written as one string: React's HTML puts `<!-- -->` between text nodes.
 */
export function SchemaTree({ node, schemas }: { node: SchemaNode; schemas: Schemas }) {
  return (
    <div className="schema-tree">
      <SchemaBody node={node} schemas={schemas} ancestors={[]} />
    </div>
  );
}

function SchemaBody({ node, schemas, ancestors }: { node: SchemaNode; schemas: Schemas; ancestors: string[] }): ReactNode {
  switch (node.kind) {
    case "ref": {
      const target = schemas[node.name];
      if (!target || ancestors.includes(node.name)) return null;
      return <SchemaBody node={target} schemas={schemas} ancestors={[...ancestors, node.name]} />;
    }
    case "object":
      return (
        <ul className="schema-properties">
          {node.properties.map((property) => (
            <Property key={property.name} property={property} schemas={schemas} ancestors={ancestors} />
          ))}
          {node.additional ? (
            <Property property={{ name: "[chiave]", required: false, schema: node.additional }} schemas={schemas} ancestors={ancestors} />
          ) : null}
        </ul>
      );
    case "array":
      return isExpandable(node.items, schemas, ancestors) ? <SchemaBody node={node.items} schemas={schemas} ancestors={ancestors} /> : null;
    case "union":
      return (
        <ol className="schema-variants" aria-label={node.combinator === "allOf" ? "Tutti questi" : "Uno di questi"}>
          {node.options.map((option, index) => (
            <li key={index}>
              {isExpandable(option, schemas, ancestors) ? (
                <Expandable label={variantLabel(option, schemas)} node={option} schemas={schemas} ancestors={ancestors} />
              ) : (
                <>
                  <span className="schema-type">{variantLabel(option, schemas)}</span>
                  <Facts facts={mergedFacts(option, schemas)} />
                </>
              )}
            </li>
          ))}
        </ol>
      );
    case "scalar":
      return null;
  }
}

function Property({ property, schemas, ancestors }: { property: PropertyNode; schemas: Schemas; ancestors: string[] }) {
  const { schema } = property;
  const facts = mergedFacts(schema, schemas);
  return (
    <li>
      <div>
        <code>{property.name}</code>
        <span>{typeLabel(schema)}</span>
        {property.required ? <strong>obbligatorio</strong> : null}
        {facts.readOnly ? <span className="schema-flag">sola lettura</span> : null}
        {facts.writeOnly ? <span className="schema-flag">solo scrittura</span> : null}
        {facts.deprecated ? <span className="schema-flag">deprecato</span> : null}
      </div>
      <Facts facts={facts} />
      {isExpandable(schema, schemas, ancestors) ? (
        <Expandable label={`Campi di ${property.name}`} node={schema} schemas={schemas} ancestors={ancestors} />
      ) : isRecursive(schema, ancestors) ? (
        <p>{`Stessa struttura di ${typeLabel(schema)} (ricorsivo).`}</p>
      ) : null}
    </li>
  );
}

function Expandable({ label, node, schemas, ancestors }: { label: string; node: SchemaNode; schemas: Schemas; ancestors: string[] }) {
  return (
    <details>
      <summary>{label}</summary>
      <SchemaBody node={node} schemas={schemas} ancestors={ancestors} />
    </details>
  );
}

/** Description, allowed values, default and limits of a node: in a property's or a variant's item, after its head. */
export function Facts({ facts }: { facts: SchemaFacts }) {
  return (
    <>
      {facts.description ? <div dangerouslySetInnerHTML={{ __html: facts.description }} /> : null}
      {facts.enum?.length ? (
        <p>
          Valori ammessi:{" "}
          {facts.enum.map((value, index) => (
            <code key={index}>{JSON.stringify(value)}</code>
          ))}
        </p>
      ) : null}
      {facts.default !== undefined ? (
        <p>
          Predefinito: <code>{JSON.stringify(facts.default)}</code>
        </p>
      ) : null}
      {facts.constraints?.map((constraint) => (
        <p key={constraint}>{constraint}</p>
      ))}
    </>
  );
}

/** A node's own facts, completed by those of the schema it references (an enum, a pattern). */
function mergedFacts(node: SchemaNode, schemas: Schemas): SchemaFacts {
  const target = node.kind === "ref" ? schemas[node.name] : node.kind === "array" ? node.items : undefined;
  if (!target || target.kind === "object") return node;
  const inherited = target.kind === "ref" ? schemas[target.name] : target;
  return { ...(inherited?.kind === "scalar" ? inherited : {}), ...stripUndefined(node) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function isRecursive(node: SchemaNode, ancestors: string[]): boolean {
  const name = node.kind === "ref" ? node.name : node.kind === "array" && node.items.kind === "ref" ? node.items.name : undefined;
  return name !== undefined && ancestors.includes(name);
}

/** Whether a node has children worth a collapsible: objects, unions, and arrays or references to them. */
export function isExpandable(node: SchemaNode, schemas: Schemas, ancestors: string[] = []): boolean {
  switch (node.kind) {
    case "ref": {
      const target = schemas[node.name];
      return Boolean(target) && !ancestors.includes(node.name) && isExpandable(target, schemas, [...ancestors, node.name]);
    }
    case "object":
      return node.properties.length > 0 || Boolean(node.additional && isExpandable(node.additional, schemas, ancestors));
    case "array":
      return isExpandable(node.items, schemas, ancestors);
    case "union":
      return true;
    case "scalar":
      return false;
  }
}

function variantLabel(node: SchemaNode, schemas: Schemas): string {
  const title = node.title ?? (node.kind === "ref" ? schemas[node.name]?.title : undefined);
  return title ? `${title} (${typeLabel(node)})` : typeLabel(node);
}
