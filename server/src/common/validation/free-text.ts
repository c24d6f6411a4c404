import { IsString, Matches, MaxLength } from 'class-validator';

/**
 * A free-text member of a request body (a note, a description): a string that is not blank, at most `max` characters
 * long. NUL characters, lone surrogates and bytes that are not UTF-8 are refused for every member before validation
 * (checkJsonBody). Combine with OptionalNullable/OptionalNotNull for whether it may be left out or null.
 */
export function FreeText(name: string, max: number): PropertyDecorator {
  return (target, property) => {
    IsString({ message: `${name} must be a string` })(target, property);
    Matches(/\S/, { message: `${name} must not be empty or blank` })(target, property);
    MaxLength(max, { message: `${name} must be at most ${max} characters long` })(target, property);
  };
}
