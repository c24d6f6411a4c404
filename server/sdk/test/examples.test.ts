import { describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The portal's SDK examples (the Client libraries page and the quickstart show them whole) compile under
 * `tsc --strict` against the SDK, as an integrator's ESM project on Node that installed it would.
 */
const EXAMPLES = fileURLToPath(new URL('../../../portal/app/content/examples/sdk/', import.meta.url));
const SDK = fileURLToPath(new URL('../src/index.ts', import.meta.url));

function typeErrors(files: string[], replace?: [string, string]): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: true,
    paths: { '@flusso/sdk': [SDK] },
  };
  const host = ts.createCompilerHost(options);
  if (replace) {
    const read = host.readFile.bind(host);
    host.readFile = (file) => (files.includes(file) ? read(file)?.replace(...replace) : read(file));
  }
  const program = ts.createProgram(files, options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe("the portal's SDK examples", () => {
  const files = readdirSync(EXAMPLES)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${EXAMPLES}${name}`);

  it('compile under tsc --strict against the SDK', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(typeErrors(files)).toEqual([]);
  });

  it('would not compile with a filter value the document does not have', () => {
    const errors = typeErrors(files, ['"filter[status__in]": ["SENT", "DELIVERED"]', '"filter[status__in]": ["SENT", "PAYED"]']);
    expect(errors.join('\n')).toContain('"PAYED"');
  });
});
