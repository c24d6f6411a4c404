/** Writes a JSON value as a literal of another language, indented two spaces per level by default. */
export interface LiteralSyntax {
  null: string;
  true: string;
  false: string;
  string: (text: string) => string;
  array: [open: string, close: string];
  object: [open: string, close: string];
  entry: (key: string, value: string) => string;
  indent?: string;
}

/** Code written as it is inside a literal: an expression such as reading an environment variable. */
export class RawCode {
  constructor(readonly code: string) {}
}

export function toLiteral(value: unknown, syntax: LiteralSyntax, depth = 0): string {
  const indent = syntax.indent ?? "  ";
  const inner = indent.repeat(depth + 1);
  const outer = indent.repeat(depth);
  if (value instanceof RawCode) return value.code;
  if (value === null || value === undefined) return syntax.null;
  if (value === true) return syntax.true;
  if (value === false) return syntax.false;
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return syntax.string(value);
  if (Array.isArray(value)) {
    const [open, close] = syntax.array;
    if (value.length === 0) return open + close;
    return `${open}\n${value.map((item) => inner + toLiteral(item, syntax, depth + 1)).join(",\n")}\n${outer}${close}`;
  }
  const [open, close] = syntax.object;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return open + close;
  const body = entries.map(([key, item]) => inner + syntax.entry(syntax.string(key), toLiteral(item, syntax, depth + 1)));
  return `${open}\n${body.join(",\n")}\n${outer}${close}`;
}

/** A double-quoted string with JSON escapes, valid in Python, Elixir, Java and PHP alike. */
export const doubleQuoted = (text: string) => JSON.stringify(text);
