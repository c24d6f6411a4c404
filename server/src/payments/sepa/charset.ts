import anyAscii from 'any-ascii';

/**
 * The SEPA character set. Banks in the SEPA schemes must accept only the basic Latin characters of the EPC's
 * implementation guidelines (`a-z A-Z 0-9 / - ? : ( ) . , ' +` and space); anything else may be refused or mangled.
 * Text that Flusso writes into a payment file (names, remittance information) is transliterated first, following the
 * EPC's recommendations for the extended character set (EPC217-08): accented Latin letters lose their accent, ligatures
 * are spelled out, `&` becomes `+`, typographic quotes and dashes their plain forms, other ASCII punctuation a full stop.
 * Letters and digits of other scripts are romanised (any-ascii: "Αθήνα" → "Athina", "Москва" → "Moskva"), so that a
 * payee keeps a name its bank can read; symbols (emoji, signs) become a space.
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
  // A combining mark left over (on a letter without a precomposed form): the letter stays, the mark goes.
  if (/\p{M}/u.test(char)) return '';
  // An accented Latin letter: its base letter once the combining marks are gone ("è" → "e", "Ç" → "C").
  const base = char.normalize('NFD').replace(/\p{M}/gu, '');
  if (/^[A-Za-z]+$/.test(base)) return base;
  // A letter or digit of another script: its romanisation, itself put in the SEPA set.
  if (/[\p{L}\p{N}]/u.test(char)) return [...anyAscii(char)].map((c) => (SEPA_CHARACTER.test(c) ? c : (SPELLED_OUT.get(c) ?? ''))).join('');
  return ' ';
}

/**
 * Text in the SEPA character set: transliterated, runs of spaces collapsed, trimmed. Composed first (NFC), so that an
 * accent sent as a combining mark ("e" + U+0301) is the accented letter, not a letter and a space.
 */
export function toSepaText(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) out += transliterateCharacter(char);
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
  // Banks trim references: " " would reach the payee as nothing, "A " as another reference than the one sent.
  if (!/[A-Za-z0-9]/.test(value)) return 'must hold a letter or a digit';
  if (value.trim() !== value) return 'must not start or end with a space';
  if (value.startsWith('/') || value.endsWith('/') || value.includes('//')) return 'must not start or end with "/" nor contain "//"';
  return null;
}
