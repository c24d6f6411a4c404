/**
 * The one place Italian identifiers are checked: partita IVA (VAT number) and codice fiscale (tax code); IBANs, which
 * are international, are checked in iban.ts. The demo's generators build on the same check characters, so demo data
 * passes these checks.
 */

/** Partita IVA: 7-digit serial, 3-digit provincial office, and a Luhn check digit over the first ten. */
export function partitaIvaCheckDigit(firstTen: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const digit = Number(firstTen[i]);
    if (i % 2 === 0) sum += digit;
    else sum += digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidPartitaIva(value: string): boolean {
  return /^\d{11}$/.test(value) && partitaIvaCheckDigit(value) === Number(value[10]);
}

/**
 * A VAT number as integrators write it ("IT 01234567890", "01234567890", "it01234567890") in its stored form: country
 * prefix, capitals, no spaces, dots or dashes. Without a prefix it takes the VAT prefix of `country` (Italy by
 * default, so eleven digits alone are a partita IVA). Null when it cannot be a VAT number at all.
 */
export function normalizeVatNumber(raw: string, country = 'IT'): string | null {
  const compact = raw.replace(/[\s.-]/g, '').toUpperCase();
  // Greece's VAT numbers start with EL, not its ISO code.
  const vatNumber = /^[A-Z]{2}/.test(compact) ? compact : (country === 'GR' ? 'EL' : country) + compact;
  return /^[A-Z]{2}[0-9A-Z]{2,13}$/.test(vatNumber) ? vatNumber : null;
}

/** A normalized VAT number passes its country's check: an Italian one (IT prefix) must be a valid partita IVA. */
export function isValidVatNumber(vatNumber: string): boolean {
  return !vatNumber.startsWith('IT') || isValidPartitaIva(vatNumber.slice(2));
}

/** The odd-position values shared by the codice fiscale check character and the IBAN CIN (0–9 read as A–J). */
const ODD_VALUES = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

function alphaIndex(char: string): number {
  return /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 65;
}

/** Check letter over a string of digits and capitals: odd positions (1-based) through the table, even ones as is. */
export function oddEvenCheckLetter(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const index = alphaIndex(text[i]);
    sum += i % 2 === 0 ? ODD_VALUES[index] : index;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/**
 * A natural person's 16-character codice fiscale: its shape (with the letters that replace digits in homocodes,
 * "omocodia") and its check letter. A company's tax code is its 11-digit partita IVA.
 */
export function isValidCodiceFiscale(value: string): boolean {
  return (
    /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPR-T][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(value) && oddEvenCheckLetter(value.slice(0, 15)) === value[15]
  );
}
