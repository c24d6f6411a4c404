/**
 * The SEPA character set. Banks in the SEPA schemes must accept only the basic Latin characters of the EPC's
 * implementation guidelines (`a-z A-Z 0-9 / - ? : ( ) . , ' +` and space); anything else may be refused or mangled.
 * Text that Flusso writes into a payment file (names, remittance information) is transliterated first, following the
 * EPC's recommendations for the extended character set (EPC217-08): accented Latin letters lose their accent, ligatures
 * are spelled out, `&` becomes `+`, typographic quotes and dashes their plain forms, other ASCII punctuation a full stop.
 * Characters of other scripts and symbols (Greek, Cyrillic, emoji) have no Latin form here and are dropped.
 */

const SEPA_CHARACTER = /[A-Za-z0-9/\-?:().,'+ ]/;

/** Letters that Unicode decomposition does not reduce to a basic Latin letter. */
const SPELLED_OUT: ReadonlyMap<string, string> = new Map([
  ['ß', 'ss'],
  ['ẞ', 'SS'],
  ['Æ', 'AE'],
  ['æ', 'ae'],
  ['Œ', 'OE'],
  ['œ', 'oe'],
  ['Ø', 'O'],
  ['ø', 'o'],
  ['Ł', 'L'],
  ['ł', 'l'],
  ['Đ', 'D'],
  ['đ', 'd'],
  ['Ð', 'D'],
  ['ð', 'd'],
  ['Þ', 'TH'],
  ['þ', 'th'],
  ['ı', 'i'],
  ['&', '+'],
  ['_', '-'],
  ['"', "'"],
  ['‘', "'"],
  ['’', "'"],
  ['‚', "'"],
  ['‛', "'"],
  ['“', "'"],
  ['”', "'"],
  ['„', "'"],
  ['«', "'"],
  ['»', "'"],
  ['`', "'"],
  ['´', "'"],
  ['‐', '-'],
  ['‑', '-'],
  ['‒', '-'],
  ['–', '-'],
  ['—', '-'],
  ['−', '-'],
  ['€', 'EUR'],
]);

function transliterateCharacter(char: string): string {
  if (SEPA_CHARACTER.test(char)) return char;
  const spelled = SPELLED_OUT.get(char);
  if (spelled !== undefined) return spelled;
  if (/\s/u.test(char) || /\p{Cc}/u.test(char)) return ' ';
  // ASCII punctuation outside the set (! # $ % * ; < = > @ [ \ ] ^ { | } ~): a full stop, as the EPC recommends.
  if (char.charCodeAt(0) < 0x80) return '.';
  // An accented Latin letter: its base letter once the combining marks are gone ("è" → "e", "Ç" → "C").
  const base = char.normalize('NFD').replace(/\p{M}/gu, '');
  return /^[A-Za-z]+$/.test(base) ? base : ' ';
}

/** Text in the SEPA character set: transliterated, runs of spaces collapsed, trimmed. */
export function toSepaText(text: string): string {
  let out = '';
  for (const char of text) out += transliterateCharacter(char);
  return out.replace(/ {2,}/g, ' ').trim();
}

/** Whether text is already within the SEPA character set. */
export function isSepaText(text: string): boolean {
  for (const char of text) if (!SEPA_CHARACTER.test(char)) return false;
  return true;
}

/**
 * References that travel end to end (message, payment information and end-to-end ids): 1 to 35 characters of the SEPA
 * set, neither starting nor ending with "/" and without "//", as the EPC guidelines restrict them.
 */
export function sepaReferenceProblem(value: string): string | null {
  if (value.length < 1 || value.length > 35) return 'must be 1 to 35 characters long';
  if (!isSepaText(value)) return "may hold only letters a-z and A-Z, digits, spaces and / - ? : ( ) . , ' +";
  if (value.startsWith('/') || value.endsWith('/') || value.includes('//')) return 'must not start or end with "/" nor contain "//"';
  return null;
}
