import { isEmail, ValidateBy, type ValidationOptions } from 'class-validator';

/** Control characters (CR and LF above all), which no address of a mail header may carry, quoted or not. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Whether a value is an e-mail address Flusso can send to or record. Never throws: class-validator's check raises
 * `URIError` on a lone surrogate (checkJsonBody refuses those first; this stays safe on its own, false). A quoted local
 * part may hold CR or LF for the grammar, but no mail server takes one: refused here rather than failing at sending.
 */
export function isEmailAddress(value: unknown): boolean {
  if (typeof value !== 'string' || CONTROL.test(value)) return false;
  try {
    return isEmail(value);
  } catch {
    return false;
  }
}

/** class-validator decorator for isEmailAddress. */
export function IsEmailAddress(options: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isEmail', validator: { validate: (value) => isEmailAddress(value) } }, options);
}
