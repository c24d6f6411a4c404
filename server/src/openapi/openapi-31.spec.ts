import { describe, expect, it } from '@jest/globals';
import { toJsonSchema } from './openapi-31.js';

const converted = (schema: Record<string, unknown>) => {
  toJsonSchema(schema);
  return schema;
};

describe('OpenAPI 3.0 schemas as 3.1 (JSON Schema 2020-12)', () => {
  it('puts null among the types, and in the enum of a nullable enum', () => {
    expect(converted({ type: 'string', format: 'date', nullable: true })).toEqual({ type: ['string', 'null'], format: 'date' });
    expect(converted({ type: 'string', enum: ['A', 'B'], nullable: true })).toEqual({ type: ['string', 'null'], enum: ['A', 'B', null] });
    expect(converted({ type: 'string', nullable: false })).toEqual({ type: 'string' });
  });

  it('makes a nullable reference "the reference or null", keeping its description', () => {
    expect(converted({ nullable: true, type: 'object', description: 'd', allOf: [{ $ref: '#/components/schemas/Money' }] })).toEqual({
      description: 'd',
      anyOf: [{ $ref: '#/components/schemas/Money' }, { type: 'null' }],
    });
    expect(converted({ nullable: true, oneOf: [{ $ref: '#/a' }, { $ref: '#/b' }] })).toEqual({ oneOf: [{ $ref: '#/a' }, { $ref: '#/b' }, { type: 'null' }] });
  });

  it('turns boolean exclusive bounds into numeric ones and example into examples, in nested schemas too', () => {
    expect(
      converted({
        type: 'object',
        properties: { rate: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 100, exclusiveMaximum: false, example: 22 } },
        additionalProperties: { type: 'array', items: { type: 'integer', nullable: true } },
      }),
    ).toEqual({
      type: 'object',
      properties: { rate: { type: 'number', exclusiveMinimum: 0, maximum: 100, examples: [22] } },
      additionalProperties: { type: 'array', items: { type: ['integer', 'null'] } },
    });
  });

  it('is idempotent', () => {
    const once = converted({ type: 'string', enum: ['A'], nullable: true, example: 'A' });
    expect(converted(structuredClone(once))).toEqual(once);
  });
});
