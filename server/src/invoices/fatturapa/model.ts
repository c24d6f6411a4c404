/**
 * THE model of the FatturaPA 1.2.3 ordinary invoice (FPA12 to public administrations, FPR12 between private parties),
 * written once by reading the official schema `Schema_VFPR12_v1.2.3.xsd`. It is the single source of truth: the XML
 * schema in `xsd/` (npm run xsd), the OpenAPI schema of the JSON invoice, the JSON ⇄ XML conversion and the validator
 * are all derived from it. Nothing reads the official files at run time.
 *
 * Reading guide: TYPES are value formats; GROUPS are the complex elements, each a list of fields in schema order with
 * their cardinality ('1' exactly one, '?' optional, '*' any number, '+' at least one) and an English meaning. The JSON
 * name of a field is its XML name in snake_case (`IdFiscaleIVA` → `id_fiscale_iva`); fields that repeat are JSON
 * lists. Values are JSON strings, amounts included (so "1234.50" keeps its digits), except the integers the product
 * specification names: `giorni_termini_pagamento`, `numero_colli` and the `riferimento_numero_linea` lists.
 *
 * A block may also declare extensions: members of Flusso's JSON form that are no FatturaPA element (`product_id` on a
 * line), documented in the OpenAPI schema and accepted in requests, absent from the XML, the XSD and the stored invoice.
 *
 * The official field numbers (2.2.2.5 for DatiRiepilogo/ImponibileImporto) follow from the order and are computed
 * (fieldNumbers() in schema-walk.ts).
 */
import {
  choice,
  code,
  codes,
  decimal,
  extension,
  field,
  group,
  integer,
  text,
  type Field,
  type Group,
  type InvoiceFormat,
  type SimpleType,
} from './model-kit.js';

export const FATTURAPA_NAMESPACE = 'http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2';
export const XMLDSIG_NAMESPACE = 'http://www.w3.org/2000/09/xmldsig#';
/** The prefix conventionally bound to the FatturaPA namespace (any prefix is accepted when reading). */
export const FATTURAPA_PREFIX = 'p';
export const SCHEMA_VERSION = '1.2.3';

// ─── Value formats ──────────────────────────────────────────────────────────────────────────────────────────────────

const latin = (max: number) => text(`Latin${max}`, 'latin1', 1, max);
const basic = (max: number) => text(`Ascii${max}`, 'basic', 1, max);

export const TYPES = {
  Ascii10: basic(10),
  Ascii15: basic(15),
  Ascii20: basic(20),
  Ascii35: basic(35),
  Ascii60: basic(60),
  Latin60: latin(60),
  Latin80: latin(80),
  Latin100: latin(100),
  Latin200: latin(200),
  Latin1000: latin(1000),
  AnyText35: text('AnyText35', 'any', 1, 35),
  HouseNumber: text('HouseNumber', 'basic', 1, 8),
  Phone: text('Phone', 'basic', 5, 12),
  Title: { ...text('Title', 'basic', 2, 10), base: 'token', format: 'a title of 2 to 10 ASCII characters (Dott., Ing.)' } as SimpleType,
  TaxIdCode: text('TaxIdCode', 'any', 1, 28, 'string'),
  EoriCode: text('EoriCode', 'any', 13, 17, 'string'),

  Country: code('Country', '[A-Z]{2}', 'a two-letter ISO 3166-1 country code in capitals (IT)'),
  Province: code('Province', '[A-Z]{2}', 'a two-letter Italian province code in capitals (MI)'),
  Currency: code('Currency', '[A-Z]{3}', 'a three-letter ISO 4217 currency code in capitals (EUR)'),
  Incoterm: code('Incoterm', '[A-Z]{3}', 'a three-letter Incoterms code in capitals (EXW)'),
  PostalCode: code('PostalCode', '[0-9]{5}', 'five digits (20121); 00000 for addresses abroad'),
  BankCode: code('BankCode', '[0-9]{5}', 'five digits'),
  RecipientCode: code('RecipientCode', '[A-Z0-9]{6,7}', '6 (FPA12) or 7 (FPR12) capital letters and digits'),
  FiscalCode: code('FiscalCode', '[A-Z0-9]{11,16}', 'a codice fiscale: 11 to 16 capital letters and digits'),
  PersonFiscalCode: code('PersonFiscalCode', '[A-Z0-9]{16}', "a natural person's codice fiscale: 16 capital letters and digits"),
  Iban: code('Iban', '[a-zA-Z]{2}[0-9]{2}[a-zA-Z0-9]{11,30}', 'an IBAN without spaces (IT60X0542811101000000123456)'),
  Bic: code('Bic', '[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3}){0,1}', 'a BIC/SWIFT code of 8 or 11 characters'),
  Pec: {
    ...code(
      'Pec',
      "([!#-'*+/-9=?A-Z^-~-]+(\\.[!#-'*+/-9=?A-Z^-~-]+)*|\"(\\[\\]!#-[^-~ \\t]|(\\\\[\\t -~]))+\")@([!#-'*+/-9=?A-Z^-~-]+(\\.[!#-'*+/-9=?A-Z^-~-]+)*|\\[[\\t -Z^-~]*\\])",
      'a certified e-mail (PEC) address, at most 256 characters',
      'token',
    ),
    maxLength: 256,
  } as SimpleType,
  ContactEmail: { ...code('ContactEmail', '.+@.+[.]+.+', 'an e-mail address of 7 to 256 characters'), minLength: 7, maxLength: 256 } as SimpleType,

  Amount2: decimal('Amount2', '[\\-]?[0-9]{1,11}\\.[0-9]{2}', 'an amount with exactly two decimals and a dot (1234.50, -10.00)'),
  Amount8: decimal('Amount8', '[\\-]?[0-9]{1,11}\\.[0-9]{2,8}', 'an amount with 2 to 8 decimals and a dot (12.50, 0.12345678)'),
  Rate: decimal('Rate', '[0-9]{1,3}\\.[0-9]{2}', 'a percentage from 0.00 to 100.00 with exactly two decimals (22.00)', '100.00'),
  Quantity: decimal('Quantity', '[0-9]{1,12}\\.[0-9]{2,8}', 'a quantity with 2 to 8 decimals and a dot (5.00)'),
  Weight: decimal('Weight', '[0-9]{1,4}\\.[0-9]{1,2}', 'a weight with one or two decimals (12.5)'),

  LineNumber: integer('LineNumber', 1, 9999),
  LineReference: integer('LineReference', 1, 9999, true),
  Parcels: integer('Parcels', 1, 9999, true),
  Phase: integer('Phase', 1, 999),
  PaymentDays: integer('PaymentDays', 0, 999, true),

  Date: { name: 'Date', base: 'date', format: 'a date written YYYY-MM-DD' } as SimpleType,
  InvoiceDate: { name: 'InvoiceDate', base: 'date', minInclusive: '1970-01-01', format: 'a date written YYYY-MM-DD, from 1970-01-01' } as SimpleType,
  DateTime: { name: 'DateTime', base: 'dateTime', format: 'a date and time written YYYY-MM-DDThh:mm:ss' } as SimpleType,
  Base64: { name: 'Base64', base: 'base64Binary', format: 'the file content in base64' } as SimpleType,

  FormatoTrasmissione: codes('FormatoTrasmissione', {
    FPA12: 'Invoice to a public administration (fattura verso PA)',
    FPR12: 'Invoice to a private party (fattura verso privati)',
  }),
  TipoDocumento: codes(
    'TipoDocumento',
    {
      TD01: 'Invoice (fattura)',
      TD02: 'Down payment on an invoice (acconto/anticipo su fattura)',
      TD03: 'Down payment on a fee note (acconto/anticipo su parcella)',
      TD04: 'Credit note (nota di credito)',
      TD05: 'Debit note (nota di debito)',
      TD06: 'Fee note (parcella)',
      TD16: 'Domestic reverse-charge integration (integrazione fattura reverse charge interno)',
      TD17: 'Integration/self-invoice for services bought abroad (integrazione/autofattura per acquisto servizi dall’estero)',
      TD18: 'Integration for intra-EU purchases of goods (integrazione per acquisto di beni intracomunitari)',
      TD19: 'Integration/self-invoice for goods under art. 17 c.2 DPR 633/72 (integrazione/autofattura per acquisto di beni ex art.17 c.2)',
      TD20: 'Self-invoice to regularise a missing or wrong supplier invoice (autofattura per regolarizzazione e integrazione delle fatture)',
      TD21: 'Self-invoice for exceeding the export ceiling (autofattura per splafonamento)',
      TD22: 'Goods taken out of a VAT warehouse (estrazione beni da deposito IVA)',
      TD23: 'Goods taken out of a VAT warehouse, with VAT paid (estrazione beni da deposito IVA con versamento dell’IVA)',
      TD24: 'Deferred invoice, art. 21 c.4 lett. a) (fattura differita)',
      TD25: 'Deferred invoice, art. 21 c.4 third period lett. b) (fattura differita)',
      TD26: 'Sale of depreciable assets and internal transfers (cessione di beni ammortizzabili e passaggi interni)',
      TD27: 'Invoice for own use or free supplies without recharge (fattura per autoconsumo o cessioni gratuite senza rivalsa)',
      TD28: 'Purchases from San Marino with VAT, paper invoice (acquisti da San Marino con IVA)',
      TD29: 'Report of a missing or irregular invoice from an Italian supplier (comunicazione per omessa o irregolare fatturazione)',
    },
    {
      TD07: 'Simplified invoice: FSM10 only, not an ordinary invoice',
      TD08: 'Simplified credit note: FSM10 only',
      TD09: 'Simplified debit note: FSM10 only',
      TD10: 'Intra-EU goods purchase invoice: not in schema 1.2.3',
      TD11: 'Intra-EU services purchase invoice: not in schema 1.2.3',
    },
  ),
  TipoRitenuta: codes('TipoRitenuta', {
    RT01: 'Withholding tax on natural persons (ritenuta di acconto persone fisiche)',
    RT02: 'Withholding tax on legal persons (ritenuta di acconto persone giuridiche)',
    RT03: 'INPS contribution',
    RT04: 'ENASARCO contribution',
    RT05: 'ENPAM contribution',
    RT06: 'Other social security contribution (altro contributo previdenziale)',
  }),
  CausalePagamento: codes(
    'CausalePagamento',
    Object.fromEntries(
      [...'ABCDEGHILMNOPQRSTUVWXYZ'.split(''), 'L1', 'M1', 'M2', 'O1', 'V1', 'ZO'].map((c) => [
        c,
        c === 'Z' ? 'Payment reason of the CU form (Z: not valid for invoices from 2021)' : 'Payment reason code of the CU tax form (modello CU)',
      ]),
    ),
    {
      J: 'Not a CU payment reason in schema 1.2.3',
      K: 'Not a CU payment reason in schema 1.2.3',
      V2: 'Not in schema 1.2.3: the SDI would discard it',
    },
  ),
  TipoScontoMaggiorazione: codes('TipoScontoMaggiorazione', { SC: 'Discount (sconto)', MG: 'Surcharge (maggiorazione)' }),
  Art73: codes('Art73', { SI: 'Issued under art. 73 DPR 633/72 (several documents with the same number in a year)' }),
  TipoCassa: codes('TipoCassa', {
    TC01: 'Lawyers (Cassa nazionale previdenza e assistenza avvocati e procuratori legali)',
    TC02: 'Accountants (Cassa previdenza dottori commercialisti)',
    TC03: 'Surveyors (Cassa previdenza e assistenza geometri)',
    TC04: 'Engineers and architects (Cassa nazionale previdenza e assistenza ingegneri e architetti liberi professionisti)',
    TC05: 'Notaries (Cassa nazionale del notariato)',
    TC06: 'Bookkeepers and commercial experts (Cassa nazionale previdenza e assistenza ragionieri e periti commerciali)',
    TC07: 'Sales agents (ENASARCO)',
    TC08: 'Labour consultants (ENPACL)',
    TC09: 'Doctors (ENPAM)',
    TC10: 'Pharmacists (ENPAF)',
    TC11: 'Veterinarians (ENPAV)',
    TC12: 'Agricultural employees (ENPAIA)',
    TC13: 'Shipping and maritime agency employees (Fondo previdenza impiegati imprese di spedizione e agenzie marittime)',
    TC14: 'Journalists (INPGI)',
    TC15: 'Orphans of health workers (ONAOSI)',
    TC16: 'Journalists, supplementary (CASAGIT)',
    TC17: 'Industrial experts (EPPI)',
    TC18: 'Multi-category fund (EPAP)',
    TC19: 'Biologists (ENPAB)',
    TC20: 'Nurses (ENPAPI)',
    TC21: 'Psychologists (ENPAP)',
    TC22: 'INPS',
  }),
  SoggettoEmittente: codes('SoggettoEmittente', {
    CC: 'The buyer issued the invoice (cessionario/committente)',
    TZ: 'A third party issued the invoice (terzo)',
  }),
  RegimeFiscale: codes(
    'RegimeFiscale',
    {
      RF01: 'Ordinary regime (regime ordinario)',
      RF02: 'Minimum taxpayers (contribuenti minimi, art. 1 c.96-117 L. 244/2007)',
      RF04: 'Agriculture and fishing (agricoltura e attività connesse e pesca, artt. 34 e 34-bis)',
      RF05: 'Salt and tobacco sales (vendita sali e tabacchi)',
      RF06: 'Match trade (commercio dei fiammiferi)',
      RF07: 'Publishing (editoria)',
      RF08: 'Public telephone services (gestione di servizi di telefonia pubblica)',
      RF09: 'Resale of public transport and parking documents (rivendita di documenti di trasporto pubblico e di sosta)',
      RF10: 'Entertainment and games (intrattenimenti, giochi e altre attività, D.P.R. 640/72)',
      RF11: 'Travel agencies (agenzie di viaggi e turismo, art. 74-ter)',
      RF12: 'Farm holidays (agriturismo)',
      RF13: 'Door-to-door sales (vendite a domicilio)',
      RF14: 'Second-hand goods, art and antiques (rivendita di beni usati, oggetti d’arte, d’antiquariato o da collezione)',
      RF15: 'Art and antiques auctions (agenzie di vendite all’asta)',
      RF16: 'VAT on cash basis for public administrations (IVA per cassa P.A.)',
      RF17: 'VAT on cash basis (IVA per cassa, art. 32-bis D.L. 83/2012)',
      RF18: 'Other (altro)',
      RF19: 'Flat-rate regime (regime forfettario)',
      RF20: 'Cross-border VAT exemption for small businesses (regime transfrontaliero di franchigia IVA, direttiva UE 2020/285)',
    },
    { RF03: 'Abolished; not in schema 1.2.3' },
  ),
  SocioUnico: codes('SocioUnico', { SU: 'Single shareholder (socio unico)', SM: 'Several shareholders (più soci)' }),
  StatoLiquidazione: codes('StatoLiquidazione', { LS: 'In liquidation (in liquidazione)', LN: 'Not in liquidation (non in liquidazione)' }),
  CondizioniPagamento: codes('CondizioniPagamento', {
    TP01: 'Payment in instalments (pagamento a rate)',
    TP02: 'Payment in full (pagamento completo)',
    TP03: 'Down payment (anticipo)',
  }),
  ModalitaPagamento: codes('ModalitaPagamento', {
    MP01: 'Cash (contanti)',
    MP02: 'Cheque (assegno)',
    MP03: "Banker's draft (assegno circolare)",
    MP04: 'Cash at the treasury (contanti presso Tesoreria)',
    MP05: 'Bank transfer (bonifico)',
    MP06: 'Promissory note (vaglia cambiario)',
    MP07: 'Bank payment slip (bollettino bancario)',
    MP08: 'Payment card (carta di pagamento)',
    MP09: 'Direct debit (RID)',
    MP10: 'Utility direct debit (RID utenze)',
    MP11: 'Fast direct debit (RID veloce)',
    MP12: 'Bank receipt (RIBA)',
    MP13: 'Payment notice (MAV)',
    MP14: 'Treasury receipt (quietanza erario)',
    MP15: 'Transfer between special accounts (giroconto su conti di contabilità speciale)',
    MP16: 'Bank direct debit (domiciliazione bancaria)',
    MP17: 'Postal direct debit (domiciliazione postale)',
    MP18: 'Postal payment slip (bollettino di c/c postale)',
    MP19: 'SEPA Direct Debit',
    MP20: 'SEPA Direct Debit CORE',
    MP21: 'SEPA Direct Debit B2B',
    MP22: 'Deduction from sums already collected (trattenuta su somme già riscosse)',
    MP23: 'PagoPA',
  }),
  Ritenuta: codes('Ritenuta', { SI: 'Subject to withholding tax (soggetta a ritenuta)' }),
  EsigibilitaIVA: codes('EsigibilitaIVA', {
    I: 'VAT due immediately (esigibilità immediata)',
    D: 'VAT due later, on payment (esigibilità differita)',
    S: 'Split payment: the public administration pays the VAT (scissione dei pagamenti)',
  }),
  Natura: codes('Natura', {
    N1: 'Excluded under art. 15 (escluse ex art. 15 DPR 633/72)',
    N2: 'Not subject to VAT — generic code, refused by the SDI since 2021 (00445): use N2.1 or N2.2',
    'N2.1': 'Not subject to VAT under arts. 7 to 7-septies (non soggette ad IVA, artt. da 7 a 7-septies)',
    'N2.2': 'Not subject to VAT, other cases (non soggette, altri casi)',
    N3: 'Not taxable — generic code, refused by the SDI since 2021 (00445): use N3.1 to N3.6',
    'N3.1': 'Not taxable: exports (non imponibili, esportazioni)',
    'N3.2': 'Not taxable: intra-EU supplies (non imponibili, cessioni intracomunitarie)',
    'N3.3': 'Not taxable: supplies to San Marino (non imponibili, cessioni verso San Marino)',
    'N3.4': 'Not taxable: operations treated as exports (non imponibili, operazioni assimilate alle cessioni all’esportazione)',
    'N3.5': 'Not taxable: after a declaration of intent (non imponibili, a seguito di dichiarazioni d’intento)',
    'N3.6': 'Not taxable: other operations outside the ceiling (non imponibili, altre operazioni che non concorrono al plafond)',
    N4: 'Exempt (esenti)',
    N5: 'Margin scheme / VAT not shown on the invoice (regime del margine / IVA non esposta in fattura)',
    N6: 'Reverse charge — generic code, refused by the SDI since 2021 (00445): use N6.1 to N6.9',
    'N6.1': 'Reverse charge: scrap and recovered materials (inversione contabile, rottami)',
    'N6.2': 'Reverse charge: gold and silver (inversione contabile, oro e argento)',
    'N6.3': 'Reverse charge: construction subcontracting (inversione contabile, subappalto nel settore edile)',
    'N6.4': 'Reverse charge: buildings (inversione contabile, cessione di fabbricati)',
    'N6.5': 'Reverse charge: mobile phones (inversione contabile, cessione di telefoni cellulari)',
    'N6.6': 'Reverse charge: electronic products (inversione contabile, cessione di prodotti elettronici)',
    'N6.7': 'Reverse charge: construction and related services (inversione contabile, comparto edile e settori connessi)',
    'N6.8': 'Reverse charge: energy sector (inversione contabile, settore energetico)',
    'N6.9': 'Reverse charge: other cases (inversione contabile, altri casi)',
    N7: 'VAT paid in another EU state (IVA assolta in altro stato UE)',
  }),
  TipoCessionePrestazione: codes('TipoCessionePrestazione', {
    SC: 'Discount (sconto)',
    PR: 'Bonus (premio)',
    AB: 'Allowance (abbuono)',
    AC: 'Incidental expense (spesa accessoria)',
  }),
  BolloVirtuale: codes('BolloVirtuale', { SI: 'Stamp duty paid virtually (bollo assolto in modo virtuale)' }),
} as const satisfies Record<string, SimpleType>;

/** The generic Natura codes schema 1.2.3 still lists but the SDI refuses since 2021 (error 00445): use a sub-code. */
export const GENERIC_NATURA: readonly string[] = ['N2', 'N3', 'N6'];

/** The Natura codes a new invoice line can carry: the model's, less the generic ones the SDI refuses. */
export const NATURA_CODES: readonly string[] = Object.keys(TYPES.Natura.enumeration ?? {}).filter((code) => !GENERIC_NATURA.includes(code));

const T = TYPES;

// ─── Shared pieces ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Denominazione, or Nome and Cognome: a company or a person. */
const nameOrPerson = () =>
  choice(
    [field('Denominazione', T.Latin80, '1', 'Company name')],
    [field('Nome', T.Latin60, '1', 'First name of a natural person'), field('Cognome', T.Latin60, '1', 'Surname of a natural person')],
  );

const vatId = (occurs: '1' | '?', whose: string): Field => field('IdFiscaleIVA', 'IdFiscale', occurs, `VAT identification number of the ${whose}`);
const fiscalCode = (whose: string): Field => field('CodiceFiscale', T.FiscalCode, '?', `Italian tax code (codice fiscale) of the ${whose}`);
const anagrafica = (whose: string): Field => field('Anagrafica', 'Anagrafica', '1', `Name of the ${whose}`);

// ─── The blocks, top to bottom ──────────────────────────────────────────────────────────────────────────────────────

export const ROOT_GROUP = 'FatturaElettronica';

export const GROUPS: Record<string, Group> = {
  FatturaElettronica: group('One FatturaPA file: a header and one invoice body per invoice', [
    field('FatturaElettronicaHeader', 'FatturaElettronicaHeader', '1', 'Transmission data and the parties of the invoice'),
    field('FatturaElettronicaBody', 'FatturaElettronicaBody', '+', 'The invoice itself (Flusso accepts exactly one per request)'),
  ]),

  FatturaElettronicaHeader: group('Transmission data and the parties', [
    field('DatiTrasmissione', 'DatiTrasmissione', '1', 'Who transmits the file, to whom, in which format'),
    field('CedentePrestatore', 'CedentePrestatore', '1', 'The seller (supplier of the goods or services)'),
    field('RappresentanteFiscale', 'RappresentanteFiscale', '?', "The seller's fiscal representative in Italy"),
    field('CessionarioCommittente', 'CessionarioCommittente', '1', 'The buyer (customer)'),
    field('TerzoIntermediarioOSoggettoEmittente', 'TerzoIntermediarioOSoggettoEmittente', '?', 'The third party that issues the invoice for the seller'),
    field('SoggettoEmittente', T.SoggettoEmittente, '?', 'Who issued the invoice when not the seller: CC the buyer, TZ a third party'),
  ]),

  DatiTrasmissione: group('Transmission data', [
    field('IdTrasmittente', 'IdFiscale', '1', 'Tax identifier of the party transmitting the file to the SDI'),
    field('ProgressivoInvio', T.Ascii10, '1', 'Progressive number of the transmission, chosen by the transmitter (Flusso generates it)'),
    field('FormatoTrasmissione', T.FormatoTrasmissione, '1', 'FPA12 for a public administration, FPR12 for a private party'),
    field(
      'CodiceDestinatario',
      T.RecipientCode,
      '1',
      "Recipient's SDI code: 6 characters (PA office) or 7 (private; 0000000 for PEC or consumers, XXXXXXX abroad)",
    ),
    field('ContattiTrasmittente', 'ContattiTrasmittente', '?', "Transmitter's contacts"),
    field('PECDestinatario', T.Pec, '?', "Recipient's certified e-mail (PEC), when CodiceDestinatario is 0000000"),
  ]),

  IdFiscale: group('A VAT identification number: country and code', [
    field('IdPaese', T.Country, '1', 'Country that assigned the code (IT)'),
    field('IdCodice', T.TaxIdCode, '1', 'The VAT number (partita IVA for IT) or tax code'),
  ]),

  ContattiTrasmittente: group("Transmitter's contacts", [
    field('Telefono', T.Phone, '?', 'Phone number'),
    field('Email', T.ContactEmail, '?', 'E-mail address'),
  ]),

  CedentePrestatore: group('The seller', [
    field('DatiAnagrafici', 'DatiAnagraficiCedente', '1', "Seller's identity and tax regime"),
    field('Sede', 'Indirizzo', '1', "Seller's registered office"),
    field('StabileOrganizzazione', 'Indirizzo', '?', "Seller's permanent establishment in Italy, for a foreign seller"),
    field('IscrizioneREA', 'IscrizioneREA', '?', "Seller's entry in the companies register (REA)"),
    field('Contatti', 'Contatti', '?', "Seller's contacts"),
    field('RiferimentoAmministrazione', T.Ascii20, '?', "Reference for the buyer's administration (for example a cost centre)"),
  ]),

  DatiAnagraficiCedente: group("Seller's identity", [
    vatId('1', 'seller'),
    fiscalCode('seller'),
    anagrafica('seller'),
    field('AlboProfessionale', T.Latin60, '?', 'Professional register the seller belongs to'),
    field('ProvinciaAlbo', T.Province, '?', 'Province of the professional register'),
    field('NumeroIscrizioneAlbo', T.Ascii60, '?', 'Registration number in the professional register'),
    field('DataIscrizioneAlbo', T.Date, '?', 'Date of registration in the professional register'),
    field('RegimeFiscale', T.RegimeFiscale, '1', "Seller's tax regime (RF01 ordinary, RF19 flat-rate…)"),
  ]),

  Anagrafica: group('A name: a company name, or first name and surname', [
    nameOrPerson(),
    field('Titolo', T.Title, '?', 'Honorific or professional title'),
    field('CodEORI', T.EoriCode, '?', 'EORI customs code'),
  ]),

  Indirizzo: group('An address', [
    field('Indirizzo', T.Latin60, '1', 'Street'),
    field('NumeroCivico', T.HouseNumber, '?', 'House number'),
    field('CAP', T.PostalCode, '1', 'Postal code'),
    field('Comune', T.Latin60, '1', 'Town'),
    field('Provincia', T.Province, '?', 'Province code, for Italian addresses'),
    field('Nazione', T.Country, '1', 'Country code; an empty element means IT', { default: 'IT' }),
  ]),

  IscrizioneREA: group('Entry in the companies register (REA)', [
    field('Ufficio', T.Province, '1', 'Province of the register office'),
    field('NumeroREA', T.Ascii20, '1', 'REA number'),
    field('CapitaleSociale', T.Amount2, '?', 'Share capital'),
    field('SocioUnico', T.SocioUnico, '?', 'Single (SU) or several (SM) shareholders'),
    field('StatoLiquidazione', T.StatoLiquidazione, '1', 'Whether the company is in liquidation (LS) or not (LN)'),
  ]),

  Contatti: group('Contacts', [
    field('Telefono', T.Phone, '?', 'Phone number'),
    field('Fax', T.Phone, '?', 'Fax number'),
    field('Email', T.ContactEmail, '?', 'E-mail address'),
  ]),

  RappresentanteFiscale: group("The seller's fiscal representative", [
    field('DatiAnagrafici', 'DatiAnagraficiRappresentante', '1', "Fiscal representative's identity"),
  ]),

  DatiAnagraficiRappresentante: group("Fiscal representative's identity", [
    vatId('1', 'fiscal representative'),
    fiscalCode('fiscal representative'),
    anagrafica('fiscal representative'),
  ]),

  CessionarioCommittente: group('The buyer', [
    field('DatiAnagrafici', 'DatiAnagraficiCessionario', '1', "Buyer's identity"),
    field('Sede', 'Indirizzo', '1', "Buyer's registered office or residence"),
    field('StabileOrganizzazione', 'Indirizzo', '?', "Buyer's permanent establishment in Italy, for a foreign buyer"),
    field('RappresentanteFiscale', 'RappresentanteFiscaleCessionario', '?', "Buyer's fiscal representative"),
  ]),

  DatiAnagraficiCessionario: group("Buyer's identity (a VAT number, a tax code or both)", [vatId('?', 'buyer'), fiscalCode('buyer'), anagrafica('buyer')]),

  RappresentanteFiscaleCessionario: group("The buyer's fiscal representative", [vatId('1', "buyer's fiscal representative"), nameOrPerson()]),

  TerzoIntermediarioOSoggettoEmittente: group('Third party issuing the invoice for the seller', [
    field('DatiAnagrafici', 'DatiAnagraficiTerzoIntermediario', '1', "Third party's identity"),
  ]),

  DatiAnagraficiTerzoIntermediario: group("Third party's identity", [vatId('?', 'third party'), fiscalCode('third party'), anagrafica('third party')]),

  FatturaElettronicaBody: group('One invoice', [
    field('DatiGenerali', 'DatiGenerali', '1', 'Document data: type, number, date, related documents, transport'),
    field('DatiBeniServizi', 'DatiBeniServizi', '1', 'Lines and VAT summary'),
    field('DatiVeicoli', 'DatiVeicoli', '?', 'New means of transport sold within the EU'),
    field('DatiPagamento', 'DatiPagamento', '*', 'Payment terms and instalments'),
    field('Allegati', 'Allegati', '*', 'Attached files'),
  ]),

  DatiGenerali: group('General data of the document', [
    field('DatiGeneraliDocumento', 'DatiGeneraliDocumento', '1', 'Type, currency, date, number and totals of the document'),
    field('DatiOrdineAcquisto', 'DatiDocumentiCorrelati', '*', 'Purchase orders the invoice refers to'),
    field('DatiContratto', 'DatiDocumentiCorrelati', '*', 'Contracts the invoice refers to'),
    field('DatiConvenzione', 'DatiDocumentiCorrelati', '*', 'Framework agreements the invoice refers to'),
    field('DatiRicezione', 'DatiDocumentiCorrelati', '*', 'Goods receipts the invoice refers to'),
    field('DatiFattureCollegate', 'DatiDocumentiCorrelati', '*', 'Earlier invoices this one is linked to (the invoice a credit note corrects)'),
    field('DatiSAL', 'DatiSAL', '*', 'Work progress stages (stato avanzamento lavori) invoiced'),
    field('DatiDDT', 'DatiDDT', '*', 'Delivery notes (DDT) the invoice covers'),
    field('DatiTrasporto', 'DatiTrasporto', '?', 'Transport data, for an accompanying invoice'),
    field('FatturaPrincipale', 'FatturaPrincipale', '?', 'The main invoice, for an invoice of transport costs'),
  ]),

  DatiGeneraliDocumento: group('Type, currency, date, number and totals', [
    field('TipoDocumento', T.TipoDocumento, '1', 'Document type (TD01 invoice, TD04 credit note…)'),
    field('Divisa', T.Currency, '1', 'Currency of every amount in the invoice (EUR)'),
    field('Data', T.InvoiceDate, '1', 'Invoice date'),
    field('Numero', T.Ascii20, '1', 'Invoice number, chosen by the seller; it must contain a digit'),
    field('DatiRitenuta', 'DatiRitenuta', '*', 'Withholding taxes and contributions withheld by the buyer'),
    field('DatiBollo', 'DatiBollo', '?', 'Stamp duty'),
    field('DatiCassaPrevidenziale', 'DatiCassaPrevidenziale', '*', 'Professional pension fund contributions charged'),
    field('ScontoMaggiorazione', 'ScontoMaggiorazione', '*', 'Discounts or surcharges on the whole document'),
    field('ImportoTotaleDocumento', T.Amount2, '?', 'Total of the document, VAT included, before withholdings'),
    field('Arrotondamento', T.Amount2, '?', 'Rounding applied to the total'),
    field('Causale', T.Latin200, '*', 'Reason for the document, free text (several elements for longer texts)'),
    field('Art73', T.Art73, '?', 'SI when issued under art. 73 DPR 633/72'),
  ]),

  DatiRitenuta: group('A withholding', [
    field('TipoRitenuta', T.TipoRitenuta, '1', 'Kind of withholding (RT01 natural persons, RT02 legal persons…)'),
    field('ImportoRitenuta', T.Amount2, '1', 'Amount withheld'),
    field('AliquotaRitenuta', T.Rate, '1', 'Withholding rate, as a percentage'),
    field('CausalePagamento', T.CausalePagamento, '1', 'Payment reason, as coded in the CU tax form'),
  ]),

  DatiBollo: group('Stamp duty', [
    field('BolloVirtuale', T.BolloVirtuale, '1', 'SI: stamp duty paid virtually'),
    field('ImportoBollo', T.Amount2, '?', 'Stamp duty amount'),
  ]),

  DatiCassaPrevidenziale: group('A pension fund contribution', [
    field('TipoCassa', T.TipoCassa, '1', 'Pension fund (TC01 lawyers … TC22 INPS)'),
    field('AlCassa', T.Rate, '1', 'Contribution rate, as a percentage'),
    field('ImportoContributoCassa', T.Amount2, '1', 'Contribution amount'),
    field('ImponibileCassa', T.Amount2, '?', 'Amount the contribution is computed on'),
    field('AliquotaIVA', T.Rate, '1', 'VAT rate applied to the contribution'),
    field('Ritenuta', T.Ritenuta, '?', 'SI when the contribution is subject to withholding'),
    field('Natura', T.Natura, '?', 'Why no VAT is charged on the contribution, when the rate is 0.00'),
    field('RiferimentoAmministrazione', T.Ascii20, '?', "Reference for the buyer's administration"),
  ]),

  ScontoMaggiorazione: group('A discount or surcharge', [
    field('Tipo', T.TipoScontoMaggiorazione, '1', 'SC discount or MG surcharge'),
    field('Percentuale', T.Rate, '?', 'As a percentage'),
    field('Importo', T.Amount8, '?', 'As an amount'),
  ]),

  DatiDocumentiCorrelati: group('A related document (order, contract, agreement, receipt or invoice)', [
    field('RiferimentoNumeroLinea', T.LineReference, '*', 'Invoice lines this document relates to (none: the whole invoice)'),
    field('IdDocumento', T.Ascii20, '1', 'Number of the related document'),
    field('Data', T.Date, '?', 'Date of the related document'),
    field('NumItem', T.Ascii20, '?', 'Line of the related document'),
    field('CodiceCommessaConvenzione', T.Latin100, '?', 'Job or agreement code'),
    field('CodiceCUP', T.Ascii15, '?', 'Public investment project code (CUP)'),
    field('CodiceCIG', T.Ascii15, '?', 'Tender identification code (CIG)'),
  ]),

  DatiSAL: group('A work progress stage', [field('RiferimentoFase', T.Phase, '1', 'Number of the stage')]),

  DatiDDT: group('A delivery note', [
    field('NumeroDDT', T.Ascii20, '1', 'Delivery note number'),
    field('DataDDT', T.Date, '1', 'Delivery note date'),
    field('RiferimentoNumeroLinea', T.LineReference, '*', 'Invoice lines the delivery note covers (none: all)'),
  ]),

  DatiTrasporto: group('Transport data', [
    field('DatiAnagraficiVettore', 'DatiAnagraficiVettore', '?', "Carrier's identity"),
    field('MezzoTrasporto', T.Latin80, '?', 'Means of transport'),
    field('CausaleTrasporto', T.Latin100, '?', 'Reason for the transport'),
    field('NumeroColli', T.Parcels, '?', 'Number of parcels'),
    field('Descrizione', T.Latin100, '?', 'Appearance of the goods (boxes, pallets)'),
    field('UnitaMisuraPeso', T.Ascii10, '?', 'Unit of the weights (kg)'),
    field('PesoLordo', T.Weight, '?', 'Gross weight'),
    field('PesoNetto', T.Weight, '?', 'Net weight'),
    field('DataOraRitiro', T.DateTime, '?', 'Date and time of pick-up'),
    field('DataInizioTrasporto', T.Date, '?', 'Date the transport starts'),
    field('TipoResa', T.Incoterm, '?', 'Delivery terms (Incoterms code)'),
    field('IndirizzoResa', 'Indirizzo', '?', 'Delivery address'),
    field('DataOraConsegna', T.DateTime, '?', 'Date and time of delivery'),
  ]),

  DatiAnagraficiVettore: group("Carrier's identity", [
    vatId('1', 'carrier'),
    fiscalCode('carrier'),
    anagrafica('carrier'),
    field('NumeroLicenzaGuida', T.Ascii20, '?', "Driver's licence number"),
  ]),

  FatturaPrincipale: group('The main invoice', [
    field('NumeroFatturaPrincipale', T.Ascii20, '1', 'Number of the main invoice'),
    field('DataFatturaPrincipale', T.Date, '1', 'Date of the main invoice'),
  ]),

  DatiBeniServizi: group('Lines and VAT summary', [
    field('DettaglioLinee', 'DettaglioLinee', '+', 'The invoice lines'),
    field('DatiRiepilogo', 'DatiRiepilogo', '+', 'VAT summary: one block per rate (and per nature of zero-rated operations)'),
  ]),

  DettaglioLinee: group(
    'An invoice line',
    [
      field('NumeroLinea', T.LineNumber, '1', 'Line number (1, 2, …)'),
      field('TipoCessionePrestazione', T.TipoCessionePrestazione, '?', 'Special kind of line: SC discount, PR bonus, AB allowance, AC incidental expense'),
      field('CodiceArticolo', 'CodiceArticolo', '*', 'Item codes'),
      field('Descrizione', T.Latin1000, '1', 'Description of the goods or services'),
      field('Quantita', T.Quantity, '?', 'Quantity (1 when absent)'),
      field('UnitaMisura', T.Ascii10, '?', 'Unit of measure'),
      field('DataInizioPeriodo', T.Date, '?', 'Start of the period the service covers'),
      field('DataFinePeriodo', T.Date, '?', 'End of the period the service covers'),
      field('PrezzoUnitario', T.Amount8, '1', 'Unit price, VAT excluded'),
      field('ScontoMaggiorazione', 'ScontoMaggiorazione', '*', 'Discounts or surcharges on the line, applied in order'),
      field('PrezzoTotale', T.Amount8, '1', 'Line total: unit price × quantity after discounts, VAT excluded'),
      field('AliquotaIVA', T.Rate, '1', 'VAT rate, as a percentage (22.00; 0.00 with a Natura)'),
      field('Ritenuta', T.Ritenuta, '?', 'SI when the line is subject to withholding tax'),
      field('Natura', T.Natura, '?', 'Why no VAT is charged, when the rate is 0.00'),
      field('RiferimentoAmministrazione', T.Ascii20, '?', "Reference for the buyer's administration"),
      field('AltriDatiGestionali', 'AltriDatiGestionali', '*', 'Other management data, free form'),
    ],
    [
      extension(
        'product_id',
        'uuid',
        "A product of the company (see the products calls) whose values fill the members this line leaves out: `descrizione` from its description, `prezzo_unitario` from its unit price (when in the invoice's `divisa`), `unita_misura` from its unit of measure, `aliquota_iva` from its VAT percentage, and `natura` from its tax exemption when the line's rate is the product's. Members the line gives win. `prezzo_totale` and `dati_riepilogo` are not computed: write them as for any line. A product that is not the company's is a 422 `invalid_invoice` at this member",
      ),
    ],
  ),

  CodiceArticolo: group('An item code', [
    field('CodiceTipo', T.Ascii35, '1', 'Kind of code (EAN, SKU, TARIC…)'),
    field('CodiceValore', T.AnyText35, '1', 'The code'),
  ]),

  AltriDatiGestionali: group('Other management data', [
    field('TipoDato', T.Ascii10, '1', 'Kind of datum (free, agreed with the buyer)'),
    field('RiferimentoTesto', T.Latin60, '?', 'Text value'),
    field('RiferimentoNumero', T.Amount8, '?', 'Numeric value'),
    field('RiferimentoData', T.Date, '?', 'Date value'),
  ]),

  DatiRiepilogo: group('VAT summary of one rate, or of one nature of zero-rated operations', [
    field('AliquotaIVA', T.Rate, '1', 'VAT rate, as a percentage (22.00; 0.00 with a Natura)'),
    field('Natura', T.Natura, '?', 'Why no VAT is charged, when the rate is 0.00'),
    field('SpeseAccessorie', T.Amount2, '?', 'Incidental expenses at this rate'),
    field('Arrotondamento', T.Amount8, '?', 'Rounding of the taxable amount'),
    field('ImponibileImporto', T.Amount2, '1', 'Taxable amount: the lines (and contributions) at this rate, plus the rounding'),
    field('Imposta', T.Amount2, '1', 'VAT: taxable amount × rate / 100, rounded to cents'),
    field('EsigibilitaIVA', T.EsigibilitaIVA, '?', 'When the VAT is due: I immediately, D later, S split payment'),
    field('RiferimentoNormativo', T.Latin100, '?', 'Law that justifies the Natura'),
  ]),

  DatiVeicoli: group('A new means of transport sold within the EU', [
    field('Data', T.Date, '1', 'Date of first registration'),
    field('TotalePercorso', T.Ascii15, '1', 'Distance travelled or hours of use'),
  ]),

  DatiPagamento: group('Payment terms', [
    field('CondizioniPagamento', T.CondizioniPagamento, '1', 'TP01 instalments, TP02 in full, TP03 down payment'),
    field('DettaglioPagamento', 'DettaglioPagamento', '+', 'One payment (one instalment); Flusso makes one flow of each'),
  ]),

  DettaglioPagamento: group('One payment', [
    field('Beneficiario', T.Latin200, '?', 'Beneficiary, when not the seller'),
    field('ModalitaPagamento', T.ModalitaPagamento, '1', 'Payment method (MP05 transfer, MP12 RIBA…)'),
    field('DataRiferimentoTerminiPagamento', T.Date, '?', 'Date the payment terms run from'),
    field('GiorniTerminiPagamento', T.PaymentDays, '?', 'Days allowed for payment from that date'),
    field('DataScadenzaPagamento', T.Date, '?', 'Due date'),
    field('ImportoPagamento', T.Amount2, '1', 'Amount of this payment'),
    field('CodUfficioPostale', T.Ascii20, '?', 'Post office code'),
    field('CognomeQuietanzante', T.Latin60, '?', 'Surname of the person who may give receipt'),
    field('NomeQuietanzante', T.Latin60, '?', 'First name of the person who may give receipt'),
    field('CFQuietanzante', T.PersonFiscalCode, '?', 'Tax code of the person who may give receipt'),
    field('TitoloQuietanzante', T.Title, '?', 'Title of the person who may give receipt'),
    field('IstitutoFinanziario', T.Latin80, '?', 'Bank'),
    field('IBAN', T.Iban, '?', 'IBAN to pay to'),
    field('ABI', T.BankCode, '?', 'Italian bank code (ABI)'),
    field('CAB', T.BankCode, '?', 'Italian branch code (CAB)'),
    field('BIC', T.Bic, '?', 'BIC/SWIFT code'),
    field('ScontoPagamentoAnticipato', T.Amount2, '?', 'Discount for early payment'),
    field('DataLimitePagamentoAnticipato', T.Date, '?', 'Last day for the early-payment discount'),
    field('PenalitaPagamentiRitardati', T.Amount2, '?', 'Penalty for late payment'),
    field('DataDecorrenzaPenale', T.Date, '?', 'Date the penalty runs from'),
    field('CodicePagamento', T.Ascii60, '?', 'Payment code (for example a PagoPA notice code)'),
  ]),

  Allegati: group('An attached file', [
    field('NomeAttachment', T.Latin60, '1', 'File name'),
    field('AlgoritmoCompressione', T.Ascii10, '?', 'Compression (ZIP, RAR)'),
    field('FormatoAttachment', T.Ascii10, '?', 'File format (PDF, TXT)'),
    field('DescrizioneAttachment', T.Latin100, '?', 'Description'),
    field('Attachment', T.Base64, '1', 'The file, base64-encoded'),
  ]),
};

/** Attributes of the root element, with the JSON member that carries each. */
export const ROOT_ATTRIBUTES = [
  { xml: 'versione', json: 'versione', type: T.FormatoTrasmissione, required: true, meaning: 'Format of the file: FPA12 or FPR12, as FormatoTrasmissione' },
  { xml: 'SistemaEmittente', json: 'sistema_emittente', type: T.Ascii10, required: false, meaning: 'Software that produced the file' },
] as const;

/** The ordinary invoice as one format (model-kit.ts): what the generators of this folder take. */
export const ORDINARY: InvoiceFormat = {
  versions: Object.keys(T.FormatoTrasmissione.enumeration ?? {}),
  namespace: FATTURAPA_NAMESPACE,
  schemaVersion: SCHEMA_VERSION,
  root: ROOT_GROUP,
  groups: GROUPS,
  types: Object.values(TYPES) as SimpleType[],
  rootAttributes: ROOT_ATTRIBUTES,
  component: 'Invoice',
  componentPrefix: 'Invoice',
  typePrefix: '',
  title: `FatturaPA ${SCHEMA_VERSION} ordinary invoice (FPA12, FPR12)`,
};
