import { useState } from "react";
import type { TagView } from "./model";
import { operationAnchor, tagAnchor } from "./anchor";

/**
 * Tags and their operations. Every group starts open so the page reads without JavaScript;
 * clicking a group's header toggles it (a second click on an open group closes it).
 */
export function ReferenceSidebar({
  tags,
  activeAnchor = null,
  open,
  onNavigate,
}: {
  tags: TagView[];
  /** Anchor of the operation being read, marked as current. */
  activeAnchor?: string | null;
  open: boolean;
  onNavigate: () => void;
}) {
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (name: string) =>
    setClosed((current) => {
      const next = new Set(current);
      if (!next.delete(name)) next.add(name);
      return next;
    });

  return (
    <nav id="reference-sidebar" className="ref-sidebar" data-open={open} aria-label="Operazioni dell'API">
      <ul>
        {tags.map((tag) => {
          const expanded = !closed.has(tag.name);
          const listId = `reference-${tagAnchor(tag.name)}`;
          return (
            <li key={tag.name}>
              <button
                type="button"
                className="ref-sidebar-group"
                aria-expanded={expanded}
                aria-controls={listId}
                onClick={() => toggle(tag.name)}
              >
                {tag.name}
              </button>
              <ul id={listId} hidden={!expanded}>
                {tag.operations.map((operation) => (
                  <li key={operation.id}>
                    <a
                      href={`#${operationAnchor(operation.id)}`}
                      aria-current={operationAnchor(operation.id) === activeAnchor ? "location" : undefined}
                      onClick={onNavigate}
                    >
                      <span className={`ref-method ref-method-${operation.method.toLowerCase()}`}>{operation.method}</span>
                      {operation.summary}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
