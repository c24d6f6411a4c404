import { codiceFiscale, generateAccountNumber, generateDestinationCode, generatePartitaIva, italianIban } from './italian-identifiers.js';
import { isValidIban } from '../common/validation/iban.js';
import { isValidCodiceFiscale, isValidPartitaIva, partitaIvaCheckDigit } from '../common/validation/italian-identifiers.js';
import { Random } from './random.js';

describe('partita IVA', () => {
  it('computes the Luhn-style check digit', () => {
    expect(partitaIvaCheckDigit('0123456789')).toBe(7);
    expect(isValidPartitaIva('01234567897')).toBe(true);
    expect(isValidPartitaIva('01234567890')).toBe(false);
    expect(isValidPartitaIva('0123456789')).toBe(false);
  });

  it('generates only valid, provincial-office numbers', () => {
    const random = new Random(7);
    for (let i = 0; i < 2000; i++) {
      const vat = generatePartitaIva(random);
      expect(isValidPartitaIva(vat)).toBe(true);
      const office = Number(vat.slice(7, 10));
      expect(office).toBeGreaterThanOrEqual(1);
      expect(office).toBeLessThanOrEqual(100);
    }
  });

  it('catches any single changed digit', () => {
    const vat = generatePartitaIva(new Random(1));
    for (let i = 0; i < 11; i++) {
      const changed = vat.slice(0, i) + String((Number(vat[i]) + 1) % 10) + vat.slice(i + 1);
      expect(isValidPartitaIva(changed)).toBe(false);
    }
  });
});

describe('IBAN', () => {
  it('reproduces the published Italian example, CIN included', () => {
    expect(italianIban('05428', '11101', '000000123456')).toBe('IT60X0542811101000000123456');
  });

  it('validates check digits', () => {
    expect(isValidIban('IT60 X054 2811 1010 0000 0123 456')).toBe(true);
    expect(isValidIban('IT61X0542811101000000123456')).toBe(false);
    expect(isValidIban('DE89370400440532013000')).toBe(true);
  });

  it('generates valid IBANs of the Italian length', () => {
    const random = new Random(3);
    for (let i = 0; i < 500; i++) {
      const iban = italianIban('03069', '09606', generateAccountNumber(random));
      expect(iban).toMatch(/^IT\d{2}[A-Z]\d{10}\d{12}$/);
      expect(isValidIban(iban)).toBe(true);
    }
  });
});

describe('codice fiscale', () => {
  it('reproduces the textbook example', () => {
    expect(codiceFiscale({ lastName: 'Rossi', firstName: 'Mario', birthDate: '1985-12-10', sex: 'M', belfiore: 'A562' })).toBe('RSSMRA85T10A562S');
  });

  it('adds 40 to the day for women and skips the second consonant of long first names', () => {
    const code = codiceFiscale({ lastName: 'Bianchi', firstName: 'Francesca', birthDate: '1990-03-05', sex: 'F', belfiore: 'F205' });
    expect(code.slice(0, 15)).toBe('BNCFNC90C45F205');
    expect(code).toMatch(/^[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]$/);
  });

  it('pads short names with X', () => {
    expect(codiceFiscale({ lastName: 'Fo', firstName: 'Ua', birthDate: '2001-01-01', sex: 'M', belfiore: 'H501' }).slice(0, 6)).toBe('FOXUAX');
  });

  it('is checked by its shape and check letter, homocode letters included', () => {
    expect(isValidCodiceFiscale('RSSMRA85T10A562S')).toBe(true);
    expect(isValidCodiceFiscale('RSSMRA85T10A562T')).toBe(false);
    expect(isValidCodiceFiscale('RSSMRA85T10A562')).toBe(false);
    expect(isValidCodiceFiscale('rssmra85t10a562s')).toBe(false);
    // Omocodia: digits of the code replaced by letters (here the last digit of the place, 2 → N), check letter recomputed.
    expect(isValidCodiceFiscale('RSSMRA85T10A56NH')).toBe(true);
    const random = new Random(3);
    for (let i = 0; i < 50; i++) {
      const code = codiceFiscale({
        lastName: 'Verdi',
        firstName: 'Anna',
        birthDate: `19${random.int(10, 99)}-0${random.int(1, 9)}-1${random.int(0, 9)}`,
        sex: 'F',
        belfiore: 'F205',
      });
      expect(isValidCodiceFiscale(code)).toBe(true);
    }
  });
});

describe('SDI destination code', () => {
  it('is seven capitals or digits', () => {
    const random = new Random(9);
    for (let i = 0; i < 100; i++) expect(generateDestinationCode(random)).toMatch(/^[A-Z0-9]{7}$/);
  });
});

describe('Random', () => {
  it('repeats its sequence for the same seed', () => {
    const a = new Random(42);
    const b = new Random(42);
    expect(Array.from({ length: 5 }, () => a.next())).toEqual(Array.from({ length: 5 }, () => b.next()));
  });
});
