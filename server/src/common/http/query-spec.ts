import { applyDecorators, type PipeTransform } from '@nestjs/common';
import { ApiQuery, type ApiQueryOptions, type SchemaObject } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error.js';
import { ApiExpand } from '../listing/list.openapi.js';
import { parseExpand, rejectUnknownParams, single, type QueryParams } from '../listing/list-query.js';
import { isUuid } from '../validation/uuid.js';

/**
 * What a route that is not a list declares about its query, as ListSpec does for lists: one declaration per parameter
 * drives the parsing (a typed value, or a 400 pointing at `/query/NAME`), the refusal of parameters it does not
 * declare, and the operation's parameters in the OpenAPI document. A route that declares none takes none
 * (QueryParamsGuard refuses them).
 *
 *     export const searchQuery = defineQuery({ vat_number: queryParam.text({ description, schema }, { required: true }) });
 *     @ApiQueryOf(searchQuery)
 *     search(@Query(searchQuery) query: QueryOf<typeof searchQuery>)
 */
export interface QueryParam<T, Absent = T | undefined> {
  /** Reads the parameter's value, given once; throws ApiError.badQuery for a value it refuses. */
  parse(raw: string, name: string): T;
  /** The value when the parameter is absent: a default or undefined (a required one throws). */
  absent(name: string): Absent;
  /** The parameter in the OpenAPI document. */
  document(name: string): MethodDecorator;
}

/** The documentation of a parameter as ApiQuery takes it, its members in the order the document shows them. */
interface ParamDoc {
  description?: string;
  schema?: SchemaObject;
  example?: unknown;
}

const documented = (doc: ParamDoc, required: boolean) => (name: string) => ApiQuery({ name, required, ...doc } as ApiQueryOptions);

function optional<T>(parse: (raw: string, name: string) => T, doc: ParamDoc): QueryParam<T, undefined> {
  return { parse, absent: () => undefined, document: documented(doc, false) };
}

interface TextCheck {
  valid?: (raw: string) => boolean;
  /** The 400's detail for a value `valid` refuses. */
  invalid?: string;
}

export const queryParam = {
  /** `true` or `false`; `default` when absent. */
  boolean(doc: Omit<ParamDoc, 'schema'>, { default: fallback }: { default: boolean }): QueryParam<boolean, boolean> {
    return {
      parse: (raw, name) => {
        if (raw !== 'true' && raw !== 'false') throw ApiError.badQuery(name, `${name} must be true or false, got "${raw}".`);
        return raw === 'true';
      },
      absent: () => fallback,
      document: documented({ schema: { type: 'boolean', default: fallback }, ...doc }, false),
    };
  },

  /** A uuid, as sent. */
  uuid(doc: Omit<ParamDoc, 'schema'>, { invalid }: { invalid: string }): QueryParam<string, undefined> {
    return optional(
      (raw, name) => {
        if (!isUuid(raw)) throw ApiError.badQuery(name, invalid);
        return raw;
      },
      { schema: { type: 'string', format: 'uuid' }, ...doc },
    );
  },

  /**
   * A string whose schema the declaration writes (`doc.schema`); `valid` checks it (else 400 `invalid`). `required`: a
   * missing or empty value is a 400 `bad_request`.
   */
  text<Required extends boolean = false>(
    doc: ParamDoc,
    check: TextCheck & { required?: Required } = {},
  ): QueryParam<string, Required extends true ? never : undefined> {
    const parse = (raw: string, name: string) => {
      if (check.required && raw === '') throw required(name);
      if (check.valid && !check.valid(raw)) throw ApiError.badQuery(name, check.invalid ?? `The value of ${name} is not valid.`);
      return raw;
    };
    if (!check.required) return optional(parse, doc) as QueryParam<string, Required extends true ? never : undefined>;
    return {
      parse,
      absent: (name) => {
        throw required(name);
      },
      document: documented(doc, true),
    } as QueryParam<string, Required extends true ? never : undefined>;
  },

  /** `expand=a,b.c` against the allowed paths (a nested path brings its parents); none when absent. */
  expand(expansions: readonly string[]): QueryParam<Set<string>, Set<string>> {
    return {
      parse: (raw) => parseExpand({ expand: raw }, expansions),
      absent: () => new Set<string>(),
      document: () => ApiExpand(expansions),
    };
  },
};

const required = (name: string) => ApiError.badQuery(name, `The query parameter ${name} is required.`, 'bad_request');

type Params = Record<string, QueryParam<unknown>>;
type ValueOf<P> = P extends QueryParam<infer T, infer Absent> ? T | Absent : never;

/** The parsed query of a spec: one typed member per declared parameter. */
export type QueryOf<S> = S extends QuerySpec<infer V> ? V : never;

/** A declared query, usable as the pipe of `@Query(spec)`. */
export class QuerySpec<V> implements PipeTransform<QueryParams, V> {
  constructor(
    readonly params: Params,
    private readonly lenient: boolean,
  ) {}

  parse(query: QueryParams): V {
    if (!this.lenient) rejectUnknownParams(query, Object.keys(this.params));
    const parsed: Record<string, unknown> = {};
    for (const [name, param] of Object.entries(this.params)) {
      if (this.lenient) {
        parsed[name] = typeof query[name] === 'string' ? query[name] : undefined;
        continue;
      }
      const value = single(query, name);
      parsed[name] = value === undefined ? param.absent(name) : param.parse(value, name);
    }
    return parsed as V;
  }

  transform(query: QueryParams): V {
    return this.parse(query ?? {});
  }
}

/** Declares a route's query parameters (see QueryParam), in the order the parser reads them. */
export function defineQuery<P extends Params>(params: P): QuerySpec<{ [K in keyof P]: ValueOf<P[K]> }>;
/**
 * `lenient`, for a signed link: each parameter is read as sent, unchecked (the link's signature is the check);
 * parameters it does not declare are ignored and a repeated or missing one reads as absent, so a link others decorated
 * with parameters of their own still works. Declared for the document.
 */
export function defineQuery<P extends Params>(params: P, options: { lenient: true }): QuerySpec<{ [K in keyof P]: string | undefined }>;
export function defineQuery<P extends Params>(params: P, options: { lenient?: boolean } = {}): QuerySpec<unknown> {
  return new QuerySpec(params, options.lenient ?? false);
}

/**
 * The spec's parameters in the OpenAPI document, in the order a stack of @ApiQuery written in declaration order gives
 * (decorators apply bottom-up: the last declared is listed first).
 */
export function ApiQueryOf(spec: QuerySpec<unknown>): MethodDecorator {
  return applyDecorators(
    ...Object.entries(spec.params)
      .map(([name, param]) => param.document(name))
      .reverse(),
  );
}
