import { ValidateIf } from 'class-validator';

/** The member may be left out, but when present it may not be null. */
export const OptionalNotNull = () => ValidateIf((_object, value) => value !== undefined);

/** The member may be left out or be null; when it holds a value, the other rules apply. */
export const OptionalNullable = () => ValidateIf((_object, value) => value !== undefined && value !== null);
