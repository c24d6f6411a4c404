import type { Sectional } from './sectional.entity.js';

/** THE number format: `{prefix}{progressive zero-padded to minimum_digits}{suffix}`. */
export function formatNumber(sectional: Pick<Sectional, 'prefix' | 'suffix' | 'minimumDigits'>, progressive: number): string {
  return `${sectional.prefix}${String(progressive).padStart(sectional.minimumDigits, '0')}${sectional.suffix}`;
}
