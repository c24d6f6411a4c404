import { beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The portal's SDK examples (the Client libraries page and the quickstart show them whole) compile under
 * `tsc --strict` against the SDK, as an integrator's ESM project on Node that installed it would.
 */
const EXAMPLES = fileURLToPath(new URL('../../../portal/app/content/examples/sdk/', import.meta.url));
const SDK = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** The program's diagnostics by file, as `tsc --strict --noEmit` gives them; `extra` are files held in memory. */
function typeErrors(files: string[], extra: Record<string, string>): Map<string, string[]> {
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
  const [read, exists] = [host.readFile.bind(host), host.fileExists.bind(host)];
  host.readFile = (file) => extra[file] ?? read(file);
  host.fileExists = (file) => file in extra || exists(file);
  // One program for all: the SDK's types are checked once.
  const program = ts.createProgram([...files, ...Object.keys(extra)], options, host);
  const errors = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? '';
    errors.set(file, [...(errors.get(file) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')]);
  }
  return errors;
}

describe("the portal's SDK examples", () => {
  const files = readdirSync(EXAMPLES)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${EXAMPLES}${name}`);
  // The Client libraries example with a status the document does not have: it must not compile.
  const typo = `${EXAMPLES}typo.ts`;
  const source = readFileSync(`${EXAMPLES}client-libraries.ts`, 'utf8');
  let errors = new Map<string, string[]>();
  beforeAll(() => {
    errors = typeErrors(files, { [typo]: source.replace('"filter[status__in]": ["SENT", "DELIVERED"]', '"filter[status__in]": ["SENT", "PAYED"]') });
  });

  it('compile under tsc --strict against the SDK', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(Object.fromEntries([...errors].filter(([file]) => file !== typo))).toEqual({});
  });

  it('would not compile with a filter value the document does not have', () => {
    expect(source).toContain('"filter[status__in]": ["SENT", "DELIVERED"]');
    expect(errors.get(typo)?.join('\n')).toContain('"PAYED"');
  });
});
