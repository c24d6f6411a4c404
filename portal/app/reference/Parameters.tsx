import type { ListOptions, ParameterView } from "./model";
import { typeLabel, type SchemaNode } from "./schema";
import { Facts, SchemaTree, isExpandable } from "./SchemaTree";

const GROUPS: Array<{ in: ParameterView["in"]; title: string }> = [
  { in: "path", title: "Parametri di percorso" },
  { in: "query", title: "Parametri di query" },
  { in: "header", title: "Intestazioni" },
];

export function Parameters({ parameters, schemas }: { parameters: ParameterView[]; schemas: Record<string, SchemaNode> }) {
  return (
    <>
      {GROUPS.map((group) => {
        const members = parameters.filter((p) => p.in === group.in);
        if (members.length === 0) return null;
        return (
          <section key={group.in} className="ref-block">
            <h4>{group.title}</h4>
            <ul className="schema-properties">
              {members.map((parameter) => (
                <li key={parameter.name}>
                  <div>
                    <code>{parameter.name}</code>
                    <span>{typeLabel(parameter.schema)}</span>
                    {parameter.required ? <strong>obbligatorio</strong> : null}
                  </div>
                  <Facts facts={{ ...parameter.schema, enum: allowedValues(parameter.schema), description: parameter.description }} />
                  {parameter.example !== undefined ? (
                    <p>
                      Esempio: <code>{parameter.example}</code>
                    </p>
                  ) : null}
                  {isExpandable(parameter.schema, schemas) ? (
                    <details>
                      <summary>{`Campi di ${parameter.name}`}</summary>
                      <SchemaTree node={parameter.schema} schemas={schemas} />
                    </details>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}

/** A parameter's allowed values; a list's are its items' (`sort`, `expand`). */
function allowedValues(schema: SchemaNode): unknown[] | undefined {
  return schema.enum ?? (schema.kind === "array" ? schema.items.enum : undefined);
}

/** The filter, sort and expand fields a list operation accepts (from `x-flusso-list`). */
export function ListOptionsTable({ list }: { list: ListOptions }) {
  if (list.filters.length + list.sorts.length + list.expansions.length === 0) return null;
  return (
    <section className="ref-block">
      <h4>Opzioni della lista</h4>
      <dl className="ref-list-options">
        {list.filters.length > 0 ? (
          <>
            <dt>
              Filtri (<code>filter[campo]</code>, <code>filter[campo__operatore]</code>; per <code>in</code> e <code>notIn</code> valori
              separati da virgole)
            </dt>
            <dd>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Campo</th>
                    <th scope="col">Operatori</th>
                  </tr>
                </thead>
                <tbody>
                  {list.filters.map((filter) => (
                    <tr key={filter.field}>
                      <td>
                        <code>{filter.field}</code>
                      </td>
                      <td>
                        {filter.operators.map((operator) => (
                          <code key={operator}>{operator}</code>
                        ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </dd>
          </>
        ) : null}
        {list.sorts.length > 0 ? (
          <>
            <dt>
              Ordinamento (<code>sort</code>, <code>-</code> per decrescente)
            </dt>
            <dd>
              {list.sorts.map((sort) => (
                <code key={sort}>{sort}</code>
              ))}
            </dd>
            {list.defaultSort ? (
              <dd>
                Predefinito: <code>{list.defaultSort}</code>
              </dd>
            ) : null}
          </>
        ) : null}
        {list.expansions.length > 0 ? (
          <>
            <dt>
              Espansioni (<code>expand</code>)
            </dt>
            <dd>
              {list.expansions.map((expansion) => (
                <code key={expansion}>{expansion}</code>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
