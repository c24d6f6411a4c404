import { registerDecorator, type ValidationOptions } from 'class-validator';

/** A day that exists, written YYYY-MM-DD (2026-02-30 is refused). */
export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Dates in request bodies: a real day, between 1900 and 2999. */
function isBodyDate(value: unknown): boolean {
  if (!isCalendarDate(value)) return false;
  const year = Number((value as string).slice(0, 4));
  return year >= 1900 && year <= 2999;
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be a date written YYYY-MM-DD', ...options },
      validator: { validate: isBodyDate },
    });
}

/** Built once: making an Intl formatter costs far more than using it. */
const ROME_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' });

/** Today's date in Italy, where Flusso's companies keep their books. */
export function todayInRome(): string {
  return ROME_DAY.format(new Date());
}
