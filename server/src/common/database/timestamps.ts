import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

/**
 * Timestamps are stored with millisecond precision: JavaScript dates carry no more, and keyset cursors built from a
 * row's timestamp must compare equal to the stored value.
 */
export const CreatedAt = () => CreateDateColumn({ type: 'timestamptz', precision: 3 });
export const UpdatedAt = () => UpdateDateColumn({ type: 'timestamptz', precision: 3 });

/** PostgreSQL `date` columns stay strings (YYYY-MM-DD) so no time zone can shift them. */
export const dateColumn = { type: 'date' as const };
export const moneyColumn = { type: 'numeric' as const };
