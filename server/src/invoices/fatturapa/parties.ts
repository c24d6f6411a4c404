/** The parties of an invoice and the company that sends it: who is who, by VAT number or tax code. */
import { isSimplified, type EInvoice } from './e-invoice.js';
import type { Anagrafica, IdFiscale } from './invoice.types.js';

/** The company as the invoice rules need it: its VAT number (`IT01234567890`, or the bare Italian digits) and tax code. */
export interface CompanyIdentity {
  vat_number: string | null;
  tax_code?: string | null;
}

const compact = (value: string) => value.replace(/[\s.-]/g, '').toUpperCase();

/**
 * A VAT identification as one string: country code and code (`IT01234567890`). Foreign senders often repeat the
 * prefix in IdCodice (`GB` + `GB99999999999`): the repeat is dropped instead of making `GBGB99999999999`. Switzerland
 * is the exception: its UID itself begins with its letters (`CHE-114.993.395`) and is kept whole after the prefix.
 */
export function vatNumber(id: IdFiscale | undefined): string | null {
  if (!id) return null;
  const country = compact(id.id_paese);
  const code = compact(id.id_codice);
  return country !== 'CH' && code.startsWith(country) ? code : `${country}${code}`;
}

/** The company's VAT number with its country: a bare 11-digit number is Italian. */
function companyVat(company: CompanyIdentity): string | null {
  if (!company.vat_number) return null;
  const vat = compact(company.vat_number);
  return /^\d{11}$/.test(vat) ? `IT${vat}` : vat;
}

interface Party {
  vat: string | null;
  taxCode: string | null;
}

function sameSubject(party: Party, company: CompanyIdentity): boolean {
  const vat = companyVat(company);
  if (vat && party.vat === vat) return true;
  const taxCode = company.tax_code ? compact(company.tax_code) : null;
  return !!taxCode && party.taxCode === taxCode;
}

/** The seller's identifiers: in DatiAnagrafici of an ordinary invoice, directly in CedentePrestatore of a simplified one. */
function sellerIds(invoice: EInvoice): { id_fiscale_iva?: IdFiscale; codice_fiscale?: string } {
  const seller = invoice.fattura_elettronica_header.cedente_prestatore;
  return 'dati_anagrafici' in seller ? seller.dati_anagrafici : seller;
}

/** The buyer's identifiers: DatiAnagrafici of an ordinary invoice, IdentificativiFiscali of a simplified one. */
function buyerIds(invoice: EInvoice): { id_fiscale_iva?: IdFiscale; codice_fiscale?: string } {
  return isSimplified(invoice)
    ? invoice.fattura_elettronica_header.cessionario_committente.identificativi_fiscali
    : invoice.fattura_elettronica_header.cessionario_committente.dati_anagrafici;
}

export function seller(invoice: EInvoice): Party {
  const data = sellerIds(invoice);
  return { vat: vatNumber(data.id_fiscale_iva), taxCode: data.codice_fiscale ?? null };
}

export function buyer(invoice: EInvoice): Party {
  const data = buyerIds(invoice);
  return { vat: vatNumber(data.id_fiscale_iva), taxCode: data.codice_fiscale ?? null };
}

export const companyIsSeller = (invoice: EInvoice, company: CompanyIdentity) => sameSubject(seller(invoice), company);
export const companyIsBuyer = (invoice: EInvoice, company: CompanyIdentity) => sameSubject(buyer(invoice), company);

/** The name on an Anagrafica: the company name, or first name and surname. */
export const displayName = (anagrafica: Anagrafica): string => anagrafica.denominazione ?? [anagrafica.nome, anagrafica.cognome].filter(Boolean).join(' ');

/**
 * What the SDI's duplicate rule (00404) compares: the seller (VAT number, else tax code), the year, TipoDocumento and
 * the number. A company holds one invoice per key (a unique index), until the SDI discards it.
 */
export function duplicateKey(invoice: EInvoice): string {
  const data = sellerIds(invoice);
  const sellerId = data.id_fiscale_iva ? `${data.id_fiscale_iva.id_paese}${data.id_fiscale_iva.id_codice}` : `CF${data.codice_fiscale}`;
  const general = invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento;
  return [compact(sellerId), general.data.slice(0, 4), general.tipo_documento, general.numero].join('/');
}
