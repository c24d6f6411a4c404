import { registerDecorator, type ValidationOptions } from 'class-validator';

/** A real calendar date written YYYY-MM-DD (2026-02-30 is refused). */
export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && y <= 2999 && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be a date written YYYY-MM-DD', ...options },
      validator: { validate: isCalendarDate },
    });
}

/** Today's date in Italy, where Flusso's companies keep their books. */
export function todayInRome(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
}
