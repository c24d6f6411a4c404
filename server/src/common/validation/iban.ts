/**
 * The one IBAN check (ISO 13616): the shape, the length the country's registry entry gives, and the mod-97 check
 * digits. Used wherever an IBAN comes in (bulk payments) and by the demo's generator, so demo IBANs pass it.
 */

/**
 * IBAN length by country, from the IBAN registry that SWIFT keeps as ISO 13616's registration authority. Territories
 * that use another country's IBAN (the French overseas departments, Åland, Jersey…) write that country's code.
 */
export const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  [
    'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28',
    'EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28 HR21 HU28 IE22 IL23 IQ23 IS26',
    'IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28',
    'NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25',
    'SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30',
  ]
    .join(' ')
    .split(' ')
    .map((entry) => [entry.slice(0, 2), Number(entry.slice(2))]),
);

/** ISO 13616 remainder: letters read as 10–35, the digits taken mod 97 as they come. */
export function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** An IBAN as people write it ("it60 x054 2811…") in its electronic form: no spaces, capitals. */
export function normalizeIban(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

/** What is wrong with an IBAN (written with or without spaces, in either case), or null when it is a valid one. */
export function ibanProblem(raw: string): string | null {
  const iban = normalizeIban(raw);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban)) {
    return 'An IBAN is a two-letter country code, two check digits and up to 30 letters and digits.';
  }
  const country = iban.slice(0, 2);
  const length = IBAN_LENGTHS.get(country);
  if (length === undefined) return `${country} is not a country that issues IBANs.`;
  if (iban.length !== length) return `An IBAN of ${country} has ${length} characters; this one has ${iban.length}.`;
  if (mod97(iban.slice(4) + iban.slice(0, 4)) !== 1) return 'The check digits do not match the rest of the IBAN (ISO 13616 mod-97 check).';
  return null;
}

export function isValidIban(raw: string): boolean {
  return ibanProblem(raw) === null;
}
