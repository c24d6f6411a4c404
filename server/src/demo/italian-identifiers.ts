import { mod97 } from '../common/validation/iban.js';
import { oddEvenCheckLetter, partitaIvaCheckDigit } from '../common/validation/italian-identifiers.js';
import type { Random } from './random.js';

/**
 * Italian identifiers generated with correct check characters, so demo data passes the checks integrators' own systems run:
 * partita IVA (VAT number), codice fiscale (personal tax code), IBAN (with the Italian CIN) and SDI codes.
 */

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function generatePartitaIva(random: Random): string {
  // Offices 001–100 are the provincial ones; a serial of all zeros is never issued.
  const firstTen = String(random.int(1, 9_999_999)).padStart(7, '0') + String(random.int(1, 100)).padStart(3, '0');
  return firstTen + partitaIvaCheckDigit(firstTen);
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
