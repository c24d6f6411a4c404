import { randomUUID } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import type { Row } from '../common/database/bulk-insert.js';
import { COUNTERPART_KINDS, type CounterpartKind, FOREIGN_ADDRESSES, REGISTRY_SECTORS } from './catalogue.js';
import { addDays } from './calendar.js';
import { codiceFiscale, generateDestinationCode, generateOfficeCode, generatePartitaIva } from './italian-identifiers.js';
import { HOME, MUNICIPALITIES, type Municipality, STREETS } from './italian-places.js';
import type { Random } from './random.js';

/** A customer or supplier of the demo company, with the kind of business it is. */
export interface DemoCounterpart {
  id: string;
  kind: CounterpartKind;
  companyName: string;
  address: string;
  city: string;
  postalCode: string;
  provinceCode: string | null;
  country: string;
  taxNumber: string | null;
  vatNumber: string;
  destinationCode: string;
}

/** SDI code for recipients abroad; Italian ones receiving by PEC use 0000000. */
const FOREIGN_DESTINATION = 'XXXXXXX';
const PEC_DESTINATION = '0000000';

function streetAddress(random: Random): string {
  return `${random.pick(STREETS)} ${random.int(1, 180)}`;
}

function destinationCode(kind: CounterpartKind, random: Random): string {
  if (kind.role === 'FOREIGN_SUPPLIER') return FOREIGN_DESTINATION;
  if (kind.role === 'PUBLIC_BODY') return generateOfficeCode(random);
  return random.chance(0.15) ? PEC_DESTINATION : generateDestinationCode(random);
}

function foreignVatNumber(country: string, random: Random): string {
  return country === 'IE' ? `IE${random.digits(7)}${random.chars('ABCDEFGHW', 1)}` : `${country}${random.digits(9)}`;
}

function foreignCounterpart(kind: CounterpartKind, name: string, random: Random): DemoCounterpart {
  const place = FOREIGN_ADDRESSES[name];
  return {
    id: randomUUID(),
    kind,
    companyName: name,
    ...place,
    provinceCode: null,
    taxNumber: null,
    vatNumber: foreignVatNumber(place.country, random),
    destinationCode: FOREIGN_DESTINATION,
  };
}

interface Owner {
  lastName: string;
  firstName: string;
}

function italianCounterpart(kind: CounterpartKind, name: string, owner: Owner, random: Random): DemoCounterpart {
  const place: Municipality = kind.local ? HOME : random.pick(MUNICIPALITIES);
  const partitaIva = generatePartitaIva(random);
  const taxNumber = kind.soleTrader
    ? codiceFiscale({
        ...owner,
        birthDate: addDays('1955-01-01', random.int(0, 40 * 365)),
        sex: 'M',
        belfiore: place.belfiore,
      })
    : partitaIva;
  return {
    id: randomUUID(),
    kind,
    companyName: name,
    address: streetAddress(random),
    city: place.city,
    postalCode: place.postalCode,
    provinceCode: place.provinceCode,
    country: 'IT',
    taxNumber,
    vatNumber: `IT${partitaIva}`,
    destinationCode: destinationCode(kind, random),
  };
}

/**
 * One counterpart of every kind, then more suppliers and customers (by how often their kind trades) up to `count`.
 * Names and VAT numbers are unique, so the counterpart list reads like a real address book.
 */
export function generateCounterparts(faker: Faker, random: Random, count: number): DemoCounterpart[] {
  const repeatable = COUNTERPART_KINDS.filter((kind) => kind.role === 'SUPPLIER' || kind.role === 'CUSTOMER');
  const kinds = [...COUNTERPART_KINDS];
  while (kinds.length < count) kinds.push(random.weighted(repeatable.map((kind) => [kind, kind.weight] as const)));

  const names = new Set<string>();
  const vatNumbers = new Set<string>();
  return kinds.map((kind) => {
    let owner: Owner;
    let name: string;
    do {
      owner = { lastName: faker.person.lastName(), firstName: faker.person.firstName('male') };
      name = kind.name(owner.lastName, owner.firstName);
    } while (names.has(name));
    names.add(name);
    let counterpart: DemoCounterpart;
    // A company has one counterpart per VAT number (the API refuses a second).
    do {
      counterpart = kind.role === 'FOREIGN_SUPPLIER' ? foreignCounterpart(kind, name, random) : italianCounterpart(kind, name, owner, random);
    } while (vatNumbers.has(counterpart.vatNumber));
    vatNumbers.add(counterpart.vatNumber);
    return counterpart;
  });
}

export function counterpartRow(counterpart: DemoCounterpart, companyId: string, createdAt: string): Row {
  return {
    id: counterpart.id,
    company_id: companyId,
    company_name: counterpart.companyName,
    address: counterpart.address,
    city: counterpart.city,
    postal_code: counterpart.postalCode,
    province_code: counterpart.provinceCode,
    country: counterpart.country,
    tax_number: counterpart.taxNumber,
    vat_number: counterpart.vatNumber,
    destination_code: counterpart.destinationCode,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** A company of the development counterpart-search registry (the stand-in for a public business registry). */
export type RegistryEntry = {
  vat_number: string;
  tax_number: string | null;
  company_name: string;
  address: string;
  city: string;
  postal_code: string;
  province_code: string | null;
  country: string;
};

export function registryEntry(counterpart: DemoCounterpart): RegistryEntry {
  return {
    vat_number: counterpart.vatNumber,
    tax_number: counterpart.taxNumber,
    company_name: counterpart.companyName,
    address: counterpart.address,
    city: counterpart.city,
    postal_code: counterpart.postalCode,
    province_code: counterpart.provinceCode,
    country: counterpart.country,
  };
}

/** Italian companies that are not the demo company's counterparts, for searching by VAT number. */
export function generateRegistryCompanies(faker: Faker, random: Random, count: number): RegistryEntry[] {
  return Array.from({ length: count }, () => {
    const place = random.pick(MUNICIPALITIES);
    const partitaIva = generatePartitaIva(random);
    return {
      vat_number: `IT${partitaIva}`,
      tax_number: partitaIva,
      company_name: random.pick(REGISTRY_SECTORS)(faker.person.lastName()),
      address: streetAddress(random),
      city: place.city,
      postal_code: place.postalCode,
      province_code: place.provinceCode,
      country: 'IT',
    };
  });
}
