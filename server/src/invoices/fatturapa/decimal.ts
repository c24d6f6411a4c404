/**
 * Exact decimal arithmetic on FatturaPA amounts (up to 8 decimals) as scaled BigInts, so totals, VAT and flows are
 * never off by a float's last digit.
 */
const SCALE = 8;
const FACTOR = 10n ** BigInt(SCALE);

/** A decimal string ("-12.50", "0.12345678") as an integer count of 10⁻⁸. */
export function toUnits(value: string): bigint {
  const match = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/.exec(value);
  if (!match) throw new Error(`Not a decimal: ${value}`);
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(whole || '0') * FACTOR + BigInt((fraction + '0'.repeat(SCALE)).slice(0, SCALE));
  return sign === '-' ? -units : units;
}

/** Units rounded half away from zero to `decimals` places, written with exactly that many decimals. */
export function fromUnits(units: bigint, decimals = 2): string {
  const step = 10n ** BigInt(SCALE - decimals);
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const rounded = ((abs + step / 2n) / step) * step;
  const whole = rounded / FACTOR;
  const fraction = (rounded % FACTOR).toString().padStart(SCALE, '0').slice(0, decimals);
  const text = decimals ? `${whole}.${fraction}` : `${whole}`;
  return negative && rounded !== 0n ? `-${text}` : text;
}

/** a × b for two unit counts. */
export const multiply = (a: bigint, b: bigint): bigint => (a * b) / FACTOR;

export const sum = (values: bigint[]): bigint => values.reduce((total, v) => total + v, 0n);

export const abs = (value: bigint): bigint => (value < 0n ? -value : value);

/** A tolerance or bound in units: units('1.00'). */
export const units = toUnits;
