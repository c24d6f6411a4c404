import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { ApiError, bodyPointer, errorItem, type ErrorItem } from '../errors/api-error.js';

/**
 * Constraints whose failure means the request is malformed (missing member, wrong JSON type, unknown member): 400.
 * Any other failed constraint means a well-formed value the API cannot accept (enum, pattern, range): 422.
 */
const STRUCTURAL = new Set([
  'whitelistValidation',
  'isDefined',
  'isString',
  'isBoolean',
  'isInt',
  'isNumber',
  'isObject',
  'isArray',
  'nestedValidation',
  'isUuid',
  'isNotEmptyObject',
]);

function flatten(errors: ValidationError[], path: string[] = []): Array<{ path: string[]; constraint: string; message: string }> {
  return errors.flatMap((error) => {
    const here = [...path, error.property];
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => ({ path: here, constraint, message }));
    // One item per offending member: its type error if it has one, else the first rule it breaks.
    const first = own.find((o) => STRUCTURAL.has(o.constraint)) ?? own[0];
    return [...(first ? [first] : []), ...flatten(error.children ?? [], here)];
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates request bodies against their DTO class, answering with one error item per offending member. */
@Injectable()
export class BodyValidationPipe implements PipeTransform {
  /** Returns other arguments (path, query) as they are, without a promise: Nest runs this pipe on every argument. */
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const { metatype, type } = metadata;
    if (type !== 'body' || !metatype || [String, Boolean, Number, Array, Object].includes(metatype as never)) return value;
    return this.validateBody(value, metatype);
  }

  private async validateBody(value: unknown, metatype: NonNullable<ArgumentMetadata['metatype']>): Promise<unknown> {
    if (value === undefined) throw ApiError.of('bad_request', 'The request body is empty; send a JSON object.');
    if (!isPlainObject(value)) {
      throw ApiError.of('bad_request', 'The request body must be a JSON object.', '');
    }
    const instance = plainToInstance(metatype, value, { enableImplicitConversion: false, exposeDefaultValues: false });
    const errors = await validate(instance as object, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
    });
    if (errors.length === 0) return instance;
    const failures = flatten(errors);
    const items: ErrorItem[] = failures.map((f) => {
      const structural = STRUCTURAL.has(f.constraint);
      const message = f.constraint === 'whitelistValidation' ? `The member ${f.path.at(-1)} is not allowed in this request.` : f.message;
      return errorItem(structural ? 'bad_request' : 'unprocessable_entity', message, bodyPointer(...f.path));
    });
    const status = items.some((i) => i.code === 'bad_request') ? 400 : 422;
    throw new ApiError(status, items);
  }
}
