import type { Random } from './random.js';

/**
 * Italian identifiers with correct check characters, so demo data passes the checks integrators' own systems run:
 * partita IVA (VAT number), codice fiscale (personal tax code), IBAN (with the Italian CIN) and SDI codes.
 */

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

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

export function generatePartitaIva(random: Random): string {
  // Offices 001–100 are the provincial ones; a serial of all zeros is never issued.
  const firstTen = String(random.int(1, 9_999_999)).padStart(7, '0') + String(random.int(1, 100)).padStart(3, '0');
  return firstTen + partitaIvaCheckDigit(firstTen);
}

/** The odd-position values shared by the codice fiscale check character and the IBAN CIN (0–9 read as A–J). */
const ODD_VALUES = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

function alphaIndex(char: string): number {
  return /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 65;
}

/** Check letter over a string of digits and capitals: odd positions (1-based) through the table, even ones as is. */
function oddEvenCheckLetter(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const index = alphaIndex(text[i]);
    sum += i % 2 === 0 ? ODD_VALUES[index] : index;
  }
  return String.fromCharCode(65 + (sum % 26));
}

const MONTH_LETTERS = 'ABCDEHLMPRST';
const VOWELS = /[AEIOU]/g;
const CONSONANTS = /[B-DF-HJ-NP-TV-Z]/g;

function lettersOf(name: string): { consonants: string[]; vowels: string[] } {
  const plain = name
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toUpperCase();
  return { consonants: plain.match(CONSONANTS) ?? [], vowels: plain.match(VOWELS) ?? [] };
}

function nameCode(name: string, isFirstName: boolean): string {
  const { consonants, vowels } = lettersOf(name);
  // A first name with four or more consonants skips the second one.
  const picked = isFirstName && consonants.length >= 4 ? [consonants[0], consonants[2], consonants[3]] : consonants;
  return [...picked, ...vowels, 'X', 'X', 'X'].slice(0, 3).join('');
}

export interface Person {
  lastName: string;
  firstName: string;
  /** YYYY-MM-DD. */
  birthDate: string;
  sex: 'M' | 'F';
  /** Cadastral code of the municipality of birth, e.g. F205 for Milano. */
  belfiore: string;
}

/** The 16-character codice fiscale of a person (the tax number of a sole trader). */
export function codiceFiscale(person: Person): string {
  const [year, month, day] = person.birthDate.split('-').map(Number);
  const dayCode = String(person.sex === 'F' ? day + 40 : day).padStart(2, '0');
  const body =
    nameCode(person.lastName, false) +
    nameCode(person.firstName, true) +
    String(year % 100).padStart(2, '0') +
    MONTH_LETTERS[month - 1] +
    dayCode +
    person.belfiore;
  return body + oddEvenCheckLetter(body);
}

/** ISO 13616 check: move the first four characters to the end, read letters as 10–35, the number mod 97 must be 1. */
function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

export function isValidIban(iban: string): boolean {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact) && mod97(compact.slice(4) + compact.slice(0, 4)) === 1;
}

/** An Italian IBAN: IT, check digits, CIN, ABI (bank), CAB (branch), 12-character account number. */
export function italianIban(abi: string, cab: string, accountNumber: string): string {
  const bban = abi + cab + accountNumber;
  const withCin = oddEvenCheckLetter(bban) + bban;
  const check = 98 - mod97(withCin + 'IT00');
  return 'IT' + String(check).padStart(2, '0') + withCin;
}

export function generateAccountNumber(random: Random): string {
  return random.digits(12);
}

/** SDI codice destinatario of a private recipient: seven capitals and digits. */
export function generateDestinationCode(random: Random): string {
  return random.chars(ALPHANUMERIC, 7);
}

/** SDI codice univoco ufficio of a public administration office: six characters. */
export function generateOfficeCode(random: Random): string {
  return random.chars(ALPHANUMERIC, 6);
}
