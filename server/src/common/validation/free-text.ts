import { IsString, Matches, MaxLength, NotContains } from 'class-validator';

/**
 * A free-text member of a request body (a note, a description): a string that is not blank, at most `max` characters
 * long, without NUL characters (PostgreSQL text cannot hold them: sent on, the write would fail instead of answering
 * with the member's pointer). Combine with OptionalNullable/OptionalNotNull for whether it may be left out or null.
 */
export function FreeText(name: string, max: number): PropertyDecorator {
  return (target, property) => {
    IsString({ message: `${name} must be a string` })(target, property);
    Matches(/\S/, { message: `${name} must not be empty or blank` })(target, property);
    NoNul(name)(target, property);
    MaxLength(max, { message: `${name} must be at most ${max} characters long` })(target, property);
  };
}

/** A string member stored as given (a URL, an address, a description that may be empty): no NUL characters. */
export function NoNul(name: string): PropertyDecorator {
  return NotContains('\u0000', { message: `${name} must not contain NUL characters (\\u0000)` });
}
