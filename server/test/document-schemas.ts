import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

/**
 * The schemas of a published OpenAPI 3.1 document, compiled with Ajv's JSON Schema 2020-12 dialect, each found by its
 * JSON Pointer in the document so its `$ref`s resolve against the document. Used by the tests: the examples' check and
 * the validation of every answer the e2e tests receive.
 */
export class DocumentSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: object) {
    this.ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, validateFormats: true });
    // ajv-formats is CommonJS: its plugin is the module's `default` under NodeNext.
    formats.default(this.ajv);
    // OpenAPI's own formats and annotations, which JSON Schema does not know, and the members of the document around
    // its schemas (the document is added whole, so that `#/components/...` resolves).
    for (const format of ['binary', 'int32', 'int64', 'float', 'double']) this.ajv.addFormat(format, true);
    for (const keyword of ['discriminator', 'xml', 'externalDocs', 'example', ...OPENAPI_MEMBERS]) this.ajv.addKeyword(keyword);
    this.ajv.addSchema(document as Record<string, unknown>, DOCUMENT_ID);
  }

  /** The validator of the schema at `pointer` (`#/components/schemas/Document`, `#/paths/~1companies/get/…/schema`). */
  validator(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(`${DOCUMENT_ID}${pointer}`);
      if (!validate) throw new Error(`No schema at ${pointer}`);
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  /** The problems of a value against the schema at `pointer`, one line each; empty when it is valid. */
  problems(pointer: string, value: unknown): string[] {
    const validate = this.validator(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
  }
}

const DOCUMENT_ID = 'https://flusso.example/openapi.json';
const OPENAPI_MEMBERS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags'];

/** A JSON Pointer token: `~` and `/` escaped (RFC 6901). */
export const pointerToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
