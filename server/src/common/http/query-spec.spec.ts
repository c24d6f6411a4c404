import { describe, expect, it } from '@jest/globals';
import { DECORATORS } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error.js';
import { ApiQueryOf, defineQuery, queryParam } from './query-spec.js';

/** The 400 a parse throws: code, pointer and detail. */
function refusal(parse: () => unknown): { code: string; pointer?: string; detail: string | null } {
  try {
    parse();
  } catch (error) {
    const [item] = (error as ApiError).items;
    return { code: item.code, pointer: item.source?.pointer, detail: item.detail };
  }
  throw new Error('parsed without a refusal');
}

const spec = defineQuery({
  issue: queryParam.boolean({ description: 'Issue it.' }, { default: false }),
  code: queryParam.text(
    { schema: { type: 'string', pattern: '^[A-Z]+$' }, description: 'A code.' },
    { valid: (raw) => /^[A-Z]+$/.test(raw), invalid: 'code must be capitals.' },
  ),
  sectional_id: queryParam.uuid({ description: 'A sectional.' }, { invalid: 'sectional_id must be the uuid of a sectional.' }),
  expand: queryParam.expand(['flows', 'flows.reconciliations']),
});

describe('defineQuery', () => {
  it('reads each declared parameter into a typed value, with its default when absent', () => {
    expect(spec.parse({})).toEqual({ issue: false, code: undefined, sectional_id: undefined, expand: new Set() });
    const parsed = spec.parse({ issue: 'true', code: 'RF', sectional_id: '7C9E6679-7425-40DE-944B-E07FC1F90AE7', expand: 'flows.reconciliations' });
    expect(parsed).toEqual({
      issue: true,
      code: 'RF',
      sectional_id: '7C9E6679-7425-40DE-944B-E07FC1F90AE7',
      expand: new Set(['flows', 'flows.reconciliations']),
    });
    // Typed: a boolean, a set.
    const { issue, expand }: { issue: boolean; expand: Set<string> } = parsed;
    expect([issue, expand.size]).toEqual([true, 2]);
  });

  it('refuses an undeclared parameter first, then a repeated or invalid one, pointing at /query/NAME', () => {
    expect(refusal(() => spec.parse({ issue: 'maybe', colour: 'red' }))).toEqual({
      code: 'invalid_query_parameter',
      pointer: '/query/colour',
      detail: 'Unknown query parameter colour.',
    });
    expect(refusal(() => spec.parse({ issue: ['true', 'false'] }))).toEqual({
      code: 'invalid_query_parameter',
      pointer: '/query/issue',
      detail: 'The parameter issue must be given once.',
    });
    expect(refusal(() => spec.parse({ issue: 'yes' }))).toMatchObject({ pointer: '/query/issue', detail: 'issue must be true or false, got "yes".' });
    expect(refusal(() => spec.parse({ code: 'rf' }))).toMatchObject({ pointer: '/query/code', detail: 'code must be capitals.' });
    expect(refusal(() => spec.parse({ sectional_id: 'x' }))).toMatchObject({
      pointer: '/query/sectional_id',
      detail: 'sectional_id must be the uuid of a sectional.',
    });
    expect(refusal(() => spec.parse({ expand: 'constructor' }))).toMatchObject({ pointer: '/query/expand' });
    // A prototype name is a parameter like any other: unknown.
    expect(refusal(() => spec.parse(JSON.parse('{"__proto__": "x"}')))).toMatchObject({ pointer: '/query/__proto__' });
  });

  it('answers 400 bad_request for a required parameter that is missing or empty', () => {
    const search = defineQuery({ vat_number: queryParam.text({ description: 'VAT number.' }, { required: true }) });
    expect(search.parse({ vat_number: 'IT01234567890' }).vat_number).toBe('IT01234567890');
    for (const query of [{}, { vat_number: '' }]) {
      expect(refusal(() => search.parse(query))).toEqual({
        code: 'bad_request',
        pointer: '/query/vat_number',
        detail: 'The query parameter vat_number is required.',
      });
    }
  });

  it('reads a lenient query as sent: unknown parameters ignored, a repeated or missing one absent, nothing checked', () => {
    const link = defineQuery(
      { expires: queryParam.text({ description: 'When.' }, { required: true }), form: queryParam.text({ description: 'Which.' }) },
      { lenient: true },
    );
    expect(link.parse({ expires: ['1', '2'], form: '', utm_source: 'mail' })).toEqual({ expires: undefined, form: '' });
  });

  it('documents the parameters as the stack of @ApiQuery it replaces: last declared first, members in declared order', () => {
    class Controller {
      route(): void {}
    }
    ApiQueryOf(spec)(Controller.prototype, 'route', Object.getOwnPropertyDescriptor(Controller.prototype, 'route')!);
    const parameters = Reflect.getMetadata(DECORATORS.API_PARAMETERS, Controller.prototype.route) as Array<Record<string, unknown>>;
    expect(parameters.map((p) => p.name)).toEqual(['expand', 'sectional_id', 'code', 'issue']);
    expect(parameters.find((p) => p.name === 'issue')).toEqual({
      name: 'issue',
      required: false,
      in: 'query',
      schema: { type: 'boolean', default: false },
      description: 'Issue it.',
    });
    expect(Object.keys(parameters.find((p) => p.name === 'code')!)).toEqual(['name', 'required', 'in', 'schema', 'description']);
  });
});
