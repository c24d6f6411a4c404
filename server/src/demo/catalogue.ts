import type { PaymentMethod } from '../flows/flow.enums.js';
import { EXAMPLE_SELLER_VAT } from '../invoices/invoice-example.js';

/**
 * What the demo company's books are made of: a trattoria in Bologna, its categories, the kinds of suppliers and
 * customers it deals with, and the terms each kind invoices on.
 */

export const DEMO_COMPANY = {
  name: 'Trattoria Da Mario S.r.l.',
  /**
   * The partita IVA of the Agenzia delle Entrate's example invoices (IT01234567890_FPR01.xml and the others), which is
   * also the seller of the API reference's example: so those files, and the example, can be sent to the demo company
   * as they are. Not a real one (its check digit is wrong, and `company:create` refuses it); reruns find the demo
   * company again by it.
   */
  vatNumber: `IT${EXAMPLE_SELLER_VAT}`,
  country: 'IT',
  fiscalRegime: 'RF01',
} as const;

export const DEMO_INTEGRATOR = { name: 'Flusso demo integrator', contactEmail: 'developers@flusso.example' } as const;

/** Categories and their subcategories, as an Italian small business would file its income and costs. */
export const CATEGORY_TREE = {
  Ricavi: ['Vendite', 'Catering ed eventi', 'Consegne a domicilio'],
  Costi: ['Fornitori', 'Bevande e vini', 'Materiali di consumo', 'Manutenzioni', 'Piattaforme online'],
  Utenze: ['Energia elettrica', 'Gas', 'Acqua', 'Telefonia e internet'],
  Personale: ['Stipendi', 'Contributi'],
  'Tasse e imposte': ['IVA', 'Imposte sui redditi', 'Tributi locali'],
  Banca: ['Commissioni bancarie', 'Commissioni POS', 'Interessi'],
  Affitti: ['Canone di locazione'],
  Consulenze: ['Commercialista', 'Consulente del lavoro'],
  Giroconti: ['Trasferimenti tra conti', 'Accantonamenti'],
} as const;

export type CategoryName = keyof typeof CATEGORY_TREE;
export type CategoryPath = { [C in CategoryName]: readonly [C, (typeof CATEGORY_TREE)[C][number]] }[CategoryName];

/** Who a counterpart is to the company, which decides the documents exchanged with it. */
export type CounterpartRole = 'SUPPLIER' | 'UTILITY' | 'CUSTOMER' | 'PUBLIC_BODY' | 'FOREIGN_SUPPLIER';

export interface CounterpartKind {
  role: CounterpartRole;
  /** The business name, from a family name and a first name. */
  name: (lastName: string, firstName: string) => string;
  /** A sole trader's tax number is a personal codice fiscale rather than the partita IVA. */
  soleTrader?: boolean;
  /** Local suppliers share the company's town. */
  local?: boolean;
  category: CategoryPath;
  vatRates: readonly number[];
  /** Range of a document's net amount, in cents. */
  net: readonly [number, number];
  paymentMethod: PaymentMethod;
  /** Days from the document date to the first expected payment. */
  termsDays: number;
  /** How often documents with this kind come, relative to the others. */
  weight: number;
}

export const COUNTERPART_KINDS: readonly CounterpartKind[] = [
  {
    role: 'SUPPLIER',
    name: (l) => `Ortofrutta ${l} S.r.l.`,
    local: true,
    category: ['Costi', 'Fornitori'],
    vatRates: [4, 10],
    net: [15_000, 120_000],
    paymentMethod: 'RIBA',
    termsDays: 30,
    weight: 8,
  },
  {
    role: 'SUPPLIER',
    name: (l) => `Caseificio ${l} S.n.c.`,
    category: ['Costi', 'Fornitori'],
    vatRates: [4],
    net: [20_000, 90_000],
    paymentMethod: 'RIBA',
    termsDays: 30,
    weight: 5,
  },
  {
    role: 'SUPPLIER',
    name: (l, f) => `Macelleria ${l} di ${f} ${l}`,
    soleTrader: true,
    local: true,
    category: ['Costi', 'Fornitori'],
    vatRates: [10],
    net: [25_000, 180_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 6,
  },
  {
    role: 'SUPPLIER',
    name: (l) => `Pescheria ${l} S.r.l.`,
    category: ['Costi', 'Fornitori'],
    vatRates: [10],
    net: [20_000, 150_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 4,
  },
  {
    role: 'SUPPLIER',
    name: (l, f) => `Panificio ${l} di ${f} ${l}`,
    soleTrader: true,
    local: true,
    category: ['Costi', 'Fornitori'],
    vatRates: [4],
    net: [8_000, 40_000],
    paymentMethod: 'TRANSFER',
    termsDays: 0,
    weight: 5,
  },
  {
    role: 'SUPPLIER',
    name: (l) => `Pastificio ${l} S.p.A.`,
    category: ['Costi', 'Fornitori'],
    vatRates: [4],
    net: [10_000, 60_000],
    paymentMethod: 'RIBA',
    termsDays: 60,
    weight: 3,
  },
  {
    role: 'SUPPLIER',
    name: (l) => `Cantina ${l} & Figli S.a.s.`,
    category: ['Costi', 'Bevande e vini'],
    vatRates: [22],
    net: [30_000, 250_000],
    paymentMethod: 'TRANSFER',
    termsDays: 60,
    weight: 4,
  },
  {
    role: 'SUPPLIER',
    name: (l) => `Distribuzione Bevande ${l} S.r.l.`,
    local: true,
    category: ['Costi', 'Bevande e vini'],
    vatRates: [22],
    net: [15_000, 100_000],
    paymentMethod: 'RIBA',
    termsDays: 30,
    weight: 4,
  },
  {
    role: 'SUPPLIER',
    name: (l) => `Forniture Alberghiere ${l} S.r.l.`,
    category: ['Costi', 'Materiali di consumo'],
    vatRates: [22],
    net: [10_000, 80_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 2,
  },
  {
    role: 'SUPPLIER',
    name: (l) => `Lavanderia Industriale ${l} S.r.l.`,
    local: true,
    category: ['Costi', 'Materiali di consumo'],
    vatRates: [22],
    net: [12_000, 45_000],
    paymentMethod: 'SDD',
    termsDays: 30,
    weight: 3,
  },
  {
    role: 'SUPPLIER',
    name: (l, f) => `Termoidraulica ${l} di ${f} ${l}`,
    soleTrader: true,
    local: true,
    category: ['Costi', 'Manutenzioni'],
    vatRates: [22],
    net: [8_000, 150_000],
    paymentMethod: 'CASH',
    termsDays: 0,
    weight: 1,
  },
  {
    role: 'SUPPLIER',
    name: (l) => `Immobiliare ${l} S.r.l.`,
    local: true,
    category: ['Affitti', 'Canone di locazione'],
    vatRates: [22],
    net: [240_000, 240_000],
    paymentMethod: 'TRANSFER',
    termsDays: 5,
    weight: 3,
  },
  {
    role: 'SUPPLIER',
    name: (l) => `Studio ${l} Commercialisti Associati`,
    category: ['Consulenze', 'Commercialista'],
    vatRates: [22],
    net: [35_000, 90_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 1,
  },
  {
    role: 'SUPPLIER',
    name: (l, f) => `Studio di consulenza del lavoro ${f} ${l}`,
    soleTrader: true,
    category: ['Consulenze', 'Consulente del lavoro'],
    vatRates: [22],
    net: [18_000, 40_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 1,
  },
  {
    role: 'UTILITY',
    name: () => 'Energia Emiliana S.p.A.',
    category: ['Utenze', 'Energia elettrica'],
    vatRates: [22],
    net: [40_000, 140_000],
    paymentMethod: 'SDD',
    termsDays: 20,
    weight: 2,
  },
  {
    role: 'UTILITY',
    name: () => 'Padana Gas Distribuzione S.p.A.',
    category: ['Utenze', 'Gas'],
    vatRates: [22],
    net: [20_000, 90_000],
    paymentMethod: 'SDD',
    termsDays: 20,
    weight: 2,
  },
  {
    role: 'UTILITY',
    name: () => 'Acque del Reno S.p.A.',
    category: ['Utenze', 'Acqua'],
    vatRates: [10],
    net: [8_000, 30_000],
    paymentMethod: 'SDD',
    termsDays: 20,
    weight: 1,
  },
  {
    role: 'UTILITY',
    name: () => 'Linea Veloce Telecomunicazioni S.p.A.',
    category: ['Utenze', 'Telefonia e internet'],
    vatRates: [22],
    net: [4_500, 9_000],
    paymentMethod: 'SDD',
    termsDays: 15,
    weight: 1,
  },
  {
    role: 'CUSTOMER',
    name: (l) => `${l} Eventi S.r.l.`,
    category: ['Ricavi', 'Catering ed eventi'],
    vatRates: [10],
    net: [60_000, 450_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 4,
  },
  {
    role: 'CUSTOMER',
    name: (l) => `Studio Legale ${l}`,
    local: true,
    category: ['Ricavi', 'Catering ed eventi'],
    vatRates: [10],
    net: [25_000, 120_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 2,
  },
  {
    role: 'CUSTOMER',
    name: (l) => `${l} Costruzioni S.p.A.`,
    category: ['Ricavi', 'Catering ed eventi'],
    vatRates: [10],
    net: [40_000, 300_000],
    paymentMethod: 'TRANSFER',
    termsDays: 60,
    weight: 2,
  },
  {
    role: 'CUSTOMER',
    name: (l) => `Agenzia Viaggi ${l} S.r.l.`,
    category: ['Ricavi', 'Vendite'],
    vatRates: [10],
    net: [30_000, 200_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 2,
  },
  {
    role: 'CUSTOMER',
    name: (l) => `Hotel ${l} S.r.l.`,
    local: true,
    category: ['Ricavi', 'Consegne a domicilio'],
    vatRates: [10],
    net: [15_000, 90_000],
    paymentMethod: 'CARD',
    termsDays: 0,
    weight: 2,
  },
  {
    role: 'CUSTOMER',
    name: (l) => `Associazione Culturale ${l}`,
    local: true,
    category: ['Ricavi', 'Catering ed eventi'],
    vatRates: [10],
    net: [20_000, 80_000],
    paymentMethod: 'TRANSFER',
    termsDays: 15,
    weight: 1,
  },
  {
    role: 'PUBLIC_BODY',
    name: () => 'Comune di Bologna',
    local: true,
    category: ['Ricavi', 'Catering ed eventi'],
    vatRates: [10],
    net: [80_000, 500_000],
    paymentMethod: 'TRANSFER',
    termsDays: 60,
    weight: 1,
  },
  {
    role: 'PUBLIC_BODY',
    name: (l) => `Istituto Comprensivo ${l}`,
    local: true,
    category: ['Ricavi', 'Catering ed eventi'],
    vatRates: [10],
    net: [30_000, 150_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 1,
  },
  {
    role: 'FOREIGN_SUPPLIER',
    name: () => 'TableNow Ireland Ltd',
    category: ['Costi', 'Piattaforme online'],
    vatRates: [22],
    net: [9_000, 60_000],
    paymentMethod: 'CARD',
    termsDays: 0,
    weight: 2,
  },
  {
    role: 'FOREIGN_SUPPLIER',
    name: () => 'Küchentechnik Müller GmbH',
    category: ['Costi', 'Manutenzioni'],
    vatRates: [22],
    net: [50_000, 400_000],
    paymentMethod: 'TRANSFER',
    termsDays: 30,
    weight: 1,
  },
];

/** Where the foreign suppliers are; their VAT numbers follow their own country's format. */
export const FOREIGN_ADDRESSES: Record<string, { address: string; city: string; postalCode: string; country: string }> = {
  'TableNow Ireland Ltd': { address: '1 Grand Canal Square', city: 'Dublin', postalCode: 'D02 P820', country: 'IE' },
  'Küchentechnik Müller GmbH': { address: 'Industriestraße 14', city: 'München', postalCode: '80939', country: 'DE' },
};

/** Companies of the development counterpart registry beyond the demo's own counterparts. */
export const REGISTRY_SECTORS: readonly ((lastName: string) => string)[] = [
  (l) => `${l} Impianti S.r.l.`,
  (l) => `${l} Logistica S.p.A.`,
  (l) => `Officina Meccanica ${l} S.n.c.`,
  (l) => `Tipografia ${l} S.r.l.`,
  (l) => `${l} Informatica S.r.l.`,
  (l) => `Edilizia ${l} S.r.l.`,
  (l) => `Farmacia ${l} S.n.c.`,
  (l) => `Ferramenta ${l} S.a.s.`,
  (l) => `Autotrasporti ${l} S.r.l.`,
  (l) => `${l} Arredamenti S.p.A.`,
  (l) => `Agenzia Immobiliare ${l} S.r.l.`,
  (l) => `Studio Tecnico ${l}`,
  (l) => `Bar ${l} S.n.c.`,
  (l) => `${l} Moda S.r.l.`,
  (l) => `Vivai ${l} Società Agricola S.s.`,
];
