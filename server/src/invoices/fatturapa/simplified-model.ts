/**
 * THE model of the FatturaPA simplified invoice (FSM10, schema 1.0.1: TD07 simplified invoice, TD08 simplified credit
 * note, TD09 simplified debit note; art. 21-bis DPR 633/72), written once by reading the official
 * `Schema_VFSM10.xsd`, with the same vocabulary as the ordinary invoice (model-kit.ts, model.ts). Its XML schema in
 * `xsd/`, its OpenAPI components (`SimplifiedInvoice…`), its TypeScript types (simplified.types.ts), the JSON ⇄ XML
 * conversion and the validator are derived from it by the same generators as the ordinary invoice's.
 *
 * What differs from the ordinary invoice: another namespace (…/fatture/v1.0) and root (FatturaElettronicaSemplificata);
 * the parties are flatter (the seller's identity directly in CedentePrestatore; the buyer may be known by its tax
 * identifiers alone); a body has no lines with quantities and prices but one DatiBeniServizi per good or service with
 * its amount, VAT included, and its VAT as an amount or a rate; no payment data; a credit or debit note names the
 * invoice it corrects in DatiFatturaRettificata.
 */
import { choice, code, codes, field, group, type Field, type Group, type InvoiceFormat, type SimpleType } from './model-kit.js';
import { TYPES as ORDINARY_TYPES } from './model.js';

export const SIMPLIFIED_NAMESPACE = 'http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.0';
export const SIMPLIFIED_SCHEMA_VERSION = '1.0.1';
export const SIMPLIFIED_ROOT = 'FatturaElettronicaSemplificata';

const O = ORDINARY_TYPES;
const ordinaryCodes = (type: SimpleType, keep: (code: string) => boolean): Record<string, string> =>
  Object.fromEntries(Object.entries(type.enumeration ?? {}).filter(([code]) => keep(code)));

/** The value formats: the ordinary invoice's where the two schemas agree, the FSM10's own where they differ. */
export const SIMPLIFIED_TYPES = {
  Ascii10: O.Ascii10,
  Ascii20: O.Ascii20,
  Latin60: O.Latin60,
  Latin80: O.Latin80,
  Latin100: O.Latin100,
  Latin1000: O.Latin1000,
  HouseNumber: O.HouseNumber,
  TaxIdCode: O.TaxIdCode,
  Country: O.Country,
  Province: O.Province,
  Currency: O.Currency,
  PostalCode: O.PostalCode,
  RecipientCode: code('RecipientCode', '[A-Z0-9]{7}', '7 capital letters and digits (0000000 for PEC or consumers, XXXXXXX abroad)'),
  FiscalCode: O.FiscalCode,
  Pec: O.Pec,
  Amount2: O.Amount2,
  Rate: O.Rate,
  InvoiceDate: O.InvoiceDate,
  Base64: O.Base64,
  FormatoTrasmissione: codes('FormatoTrasmissione', { FSM10: 'Simplified invoice to a private party (fattura verso privati semplificata)' }),
  TipoDocumento: codes(
    'TipoDocumento',
    {
      TD07: 'Simplified invoice (fattura semplificata)',
      TD08: 'Simplified credit note (nota di credito semplificata)',
      TD09: 'Simplified debit note (nota di debito semplificata)',
    },
    { TD01: 'An ordinary invoice: send it as FPA12 or FPR12, not FSM10' },
  ),
  SoggettoEmittente: O.SoggettoEmittente,
  RegimeFiscale: codes(
    'RegimeFiscale',
    ordinaryCodes(O.RegimeFiscale, (code) => code !== 'RF20'),
    { RF20: 'Not in the simplified schema 1.0.1', RF03: 'Abolished' },
  ),
  SocioUnico: O.SocioUnico,
  StatoLiquidazione: O.StatoLiquidazione,
  Natura: codes(
    'Natura',
    ordinaryCodes(O.Natura, (code) => !code.startsWith('N6') && code !== 'N7'),
    { N6: 'Reverse charge: not in the simplified schema', N7: 'Not in the simplified schema' },
  ),
  BolloVirtuale: O.BolloVirtuale,
} as const satisfies Record<string, SimpleType>;

const T = SIMPLIFIED_TYPES;

const nameOrPerson = () =>
  choice(
    [field('Denominazione', T.Latin80, '1', 'Company name')],
    [field('Nome', T.Latin60, '1', 'First name of a natural person'), field('Cognome', T.Latin60, '1', 'Surname of a natural person')],
  );
const vatId = (occurs: '1' | '?', whose: string): Field => field('IdFiscaleIVA', 'IdFiscale', occurs, `VAT identification number of the ${whose}`);
const fiscalCode = (whose: string): Field => field('CodiceFiscale', T.FiscalCode, '?', `Italian tax code (codice fiscale) of the ${whose}`);

export const SIMPLIFIED_GROUPS: Record<string, Group> = {
  FatturaElettronicaSemplificata: group('One simplified FatturaPA file (FSM10): a header and one body per invoice', [
    field('FatturaElettronicaHeader', 'FatturaElettronicaHeader', '1', 'Transmission data and the parties of the invoice'),
    field('FatturaElettronicaBody', 'FatturaElettronicaBody', '+', 'The invoice itself (Flusso accepts exactly one per request)'),
  ]),

  FatturaElettronicaHeader: group('Transmission data and the parties', [
    field('DatiTrasmissione', 'DatiTrasmissione', '1', 'Who transmits the file, to whom, in which format'),
    field('CedentePrestatore', 'CedentePrestatore', '1', 'The seller (supplier of the goods or services)'),
    field('CessionarioCommittente', 'CessionarioCommittente', '1', 'The buyer (customer)'),
    field('SoggettoEmittente', T.SoggettoEmittente, '?', 'Who issued the invoice when not the seller: CC the buyer, TZ a third party'),
  ]),

  DatiTrasmissione: group('Transmission data', [
    field('IdTrasmittente', 'IdFiscale', '1', 'Tax identifier of the party transmitting the file to the SDI'),
    field('ProgressivoInvio', T.Ascii10, '1', 'Progressive number of the transmission, chosen by the transmitter (Flusso generates it)'),
    field('FormatoTrasmissione', T.FormatoTrasmissione, '1', 'FSM10: a simplified invoice'),
    field('CodiceDestinatario', T.RecipientCode, '1', "Recipient's SDI code: 7 characters (0000000 for PEC or consumers, XXXXXXX abroad)"),
    field('PECDestinatario', T.Pec, '?', "Recipient's certified e-mail (PEC), when CodiceDestinatario is 0000000"),
  ]),

  IdFiscale: group('A VAT identification number: country and code', [
    field('IdPaese', T.Country, '1', 'Country that assigned the code (IT)'),
    field('IdCodice', T.TaxIdCode, '1', 'The VAT number (partita IVA for IT) or tax code'),
  ]),

  CedentePrestatore: group('The seller', [
    vatId('1', 'seller'),
    fiscalCode('seller'),
    nameOrPerson(),
    field('Sede', 'Indirizzo', '1', "Seller's registered office"),
    field('StabileOrganizzazione', 'Indirizzo', '?', "Seller's permanent establishment in Italy, for a foreign seller"),
    field('RappresentanteFiscale', 'RappresentanteFiscale', '?', "Seller's fiscal representative in Italy"),
    field('IscrizioneREA', 'IscrizioneREA', '?', "Seller's entry in the companies register (REA)"),
    field('RegimeFiscale', T.RegimeFiscale, '1', "Seller's tax regime (RF01 ordinary, RF19 flat-rate…)"),
  ]),

  Indirizzo: group('An address', [
    field('Indirizzo', T.Latin60, '1', 'Street'),
    field('NumeroCivico', T.HouseNumber, '?', 'House number'),
    field('CAP', T.PostalCode, '1', 'Postal code'),
    field('Comune', T.Latin60, '1', 'Town'),
    field('Provincia', T.Province, '?', 'Province code, for Italian addresses'),
    field('Nazione', T.Country, '1', 'Country code; an empty element means IT', { default: 'IT' }),
  ]),

  RappresentanteFiscale: group('A fiscal representative', [vatId('1', 'fiscal representative'), nameOrPerson()]),

  IscrizioneREA: group('Entry in the companies register (REA)', [
    field('Ufficio', T.Province, '1', 'Province of the register office'),
    field('NumeroREA', T.Ascii20, '1', 'REA number'),
    field('CapitaleSociale', T.Amount2, '?', 'Share capital'),
    field('SocioUnico', T.SocioUnico, '?', 'Single (SU) or several (SM) shareholders'),
    field('StatoLiquidazione', T.StatoLiquidazione, '1', 'Whether the company is in liquidation (LS) or not (LN)'),
  ]),

  CessionarioCommittente: group('The buyer', [
    field('IdentificativiFiscali', 'IdentificativiFiscali', '1', "Buyer's tax identifiers"),
    field('AltriDatiIdentificativi', 'AltriDatiIdentificativi', '?', "Buyer's name and address, when given"),
  ]),

  IdentificativiFiscali: group("Buyer's tax identifiers (a VAT number, a tax code or both)", [vatId('?', 'buyer'), fiscalCode('buyer')]),

  AltriDatiIdentificativi: group("Buyer's name and address", [
    nameOrPerson(),
    field('Sede', 'Indirizzo', '1', "Buyer's registered office or residence"),
    field('StabileOrganizzazione', 'Indirizzo', '?', "Buyer's permanent establishment in Italy, for a foreign buyer"),
    field('RappresentanteFiscale', 'RappresentanteFiscale', '?', "Buyer's fiscal representative"),
  ]),

  FatturaElettronicaBody: group('One simplified invoice', [
    field('DatiGenerali', 'DatiGenerali', '1', 'Document data: type, number, date, the invoice a note corrects'),
    field('DatiBeniServizi', 'DatiBeniServizi', '+', 'The goods and services, one block each, with their amount VAT included'),
    field('Allegati', 'Allegati', '*', 'Attached files'),
  ]),

  DatiGenerali: group('General data of the document', [
    field('DatiGeneraliDocumento', 'DatiGeneraliDocumento', '1', 'Type, currency, date and number of the document'),
    field('DatiFatturaRettificata', 'DatiFatturaRettificata', '?', 'The invoice a credit or debit note (TD08, TD09) corrects'),
  ]),

  DatiGeneraliDocumento: group('Type, currency, date and number', [
    field('TipoDocumento', T.TipoDocumento, '1', 'Document type (TD07 invoice, TD08 credit note, TD09 debit note)'),
    field('Divisa', T.Currency, '1', 'Currency of every amount in the invoice (EUR)'),
    field('Data', T.InvoiceDate, '1', 'Invoice date'),
    field('Numero', T.Ascii20, '1', 'Invoice number, chosen by the seller; it must contain a digit'),
    field('BolloVirtuale', T.BolloVirtuale, '?', 'SI: stamp duty paid virtually'),
  ]),

  DatiFatturaRettificata: group('The invoice a note corrects', [
    field('NumeroFR', T.Ascii20, '1', 'Number of the corrected invoice'),
    field('DataFR', T.InvoiceDate, '1', 'Date of the corrected invoice'),
    field('ElementiRettificati', T.Latin1000, '1', 'What the note changes, in words'),
  ]),

  DatiBeniServizi: group('A good or service', [
    field('Descrizione', T.Latin1000, '1', 'Description of the goods or services'),
    field('Importo', T.Amount2, '1', 'Amount, VAT included'),
    field('DatiIVA', 'DatiIVA', '1', 'The VAT the amount includes: as an amount, or as a rate'),
    field('Natura', T.Natura, '?', 'Why no VAT is charged, when there is none'),
    field('RiferimentoNormativo', T.Latin100, '?', 'Law that justifies the Natura'),
  ]),

  DatiIVA: group('The VAT included in an amount', [
    field('Imposta', T.Amount2, '?', 'The VAT, as an amount'),
    field('Aliquota', T.Rate, '?', 'The VAT rate, as a percentage (22.00): the VAT is amount × rate / (100 + rate)'),
  ]),

  Allegati: group('An attached file', [
    field('NomeAttachment', T.Latin60, '1', 'File name'),
    field('AlgoritmoCompressione', T.Ascii10, '?', 'Compression (ZIP, RAR)'),
    field('FormatoAttachment', T.Ascii10, '?', 'File format (PDF, TXT)'),
    field('DescrizioneAttachment', T.Latin100, '?', 'Description'),
    field('Attachment', T.Base64, '1', 'The file, base64-encoded'),
  ]),
};

export const SIMPLIFIED: InvoiceFormat = {
  versions: ['FSM10'],
  namespace: SIMPLIFIED_NAMESPACE,
  schemaVersion: SIMPLIFIED_SCHEMA_VERSION,
  root: SIMPLIFIED_ROOT,
  groups: SIMPLIFIED_GROUPS,
  types: Object.values(SIMPLIFIED_TYPES) as SimpleType[],
  rootAttributes: [
    { xml: 'versione', json: 'versione', type: T.FormatoTrasmissione, required: true, meaning: 'Format of the file: FSM10, as FormatoTrasmissione' },
    { xml: 'SistemaEmittente', json: 'sistema_emittente', type: T.Ascii10, required: false, meaning: 'Software that produced the file' },
  ],
  component: 'SimplifiedInvoice',
  componentPrefix: 'SimplifiedInvoice',
  typePrefix: 'Simplified',
  title: `FatturaPA simplified invoice ${SIMPLIFIED_SCHEMA_VERSION} (FSM10)`,
};
