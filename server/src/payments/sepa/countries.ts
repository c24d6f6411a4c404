/**
 * Countries whose IBANs a SEPA credit transfer reaches: the countries of the SEPA schemes as the EPC lists them (the
 * EU and EEA states, Switzerland, the United Kingdom, Monaco, San Marino, Vatican City, Andorra, Gibraltar, and the
 * countries that joined in 2024–2025: Albania, Moldova, Montenegro, North Macedonia, Serbia). Territories that belong
 * to the schemes through another country (Åland, the French overseas departments, Jersey, Guernsey, the Isle of Man…)
 * use that country's IBAN, so their IBANs start with its code.
 */
export const SEPA_COUNTRIES: ReadonlySet<string> = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO CH GB MC SM VA AD GI AL MD ME MK RS'.split(' '),
);
