import { randomUUID } from 'node:crypto';
import type { TransactionType } from '../transactions/transaction.entity.js';
import type { Row } from '../common/database/bulk-insert.js';
import type { CategoryPath } from './catalogue.js';
import { addDays, atMinute, formatCents, italianDate } from './calendar.js';
import type { DemoCounterpart } from './counterparts.js';
import { MONTHS } from './italian-places.js';
import type { AccountBalances, CategoryRefs, DemoAccounts } from './ledger.js';
import type { Random } from './random.js';

/**
 * The everyday bank movements of a restaurant that no document explains on its own: card takings, cash deposits,
 * wages, F24 tax payments, bank and POS fees, small card purchases. Generated in batches so a million of them never
 * sit in memory at once.
 */

export interface MovementContext {
  companyId: string;
  /** The counterpart of transfers between the company's own accounts. */
  companyName: string;
  today: string;
  random: Random;
  accounts: DemoAccounts;
  categories: CategoryRefs;
  balances: AccountBalances;
  suppliers: readonly DemoCounterpart[];
  employees: readonly string[];
}

interface Movement {
  account: keyof DemoAccounts;
  type: TransactionType;
  cents: number;
  description: string;
  clean: string;
  counterpart: string | null;
  category: CategoryPath | null;
  /** Value date the next day (card takings), instead of the booking day. */
  valueNextDay?: boolean;
}

/** A day of the year being generated, with the forms of its date the descriptions use, computed once per day. */
interface Day {
  date: string;
  nextDate: string;
  /** dd/mm/yyyy of the day before (card takings settle the next day) and of three days before. */
  dayBefore: string;
  threeDaysBefore: string;
  /** Month whose wages are paid on this day (the previous one in the first ten days). */
  payrollMonth: string;
  month: string;
  year: string;
}

function dayOf(date: string): Day {
  return {
    date,
    nextDate: addDays(date, 1),
    dayBefore: italianDate(addDays(date, -1)),
    threeDaysBefore: italianDate(addDays(date, -3)),
    payrollMonth: MONTHS[Number(addDays(date, -10).slice(5, 7)) - 1],
    month: MONTHS[Number(date.slice(5, 7)) - 1],
    year: date.slice(0, 4),
  };
}

const DAYS = 365;

type Template = (day: Day, context: MovementContext) => Movement;

/** How a card purchase reads on the statement, and the shop's name. */
const MERCHANTS = [
  ['CASH & CARRY EMILIA', 'Cash & Carry Emilia'],
  ['FERRAMENTA CENTRALE', 'Ferramenta Centrale'],
  ['STAZIONE SERVIZIO VIA EMILIA', 'Stazione di servizio Via Emilia'],
  ['SUPERMERCATO IL GRANAIO', 'Supermercato Il Granaio'],
  ['CARTOLERIA SAN VITALE', 'Cartoleria San Vitale'],
  ['CASALINGHI BOLOGNESI', 'Casalinghi Bolognesi'],
] as const;

const TEMPLATES: readonly (readonly [Template, number])[] = [
  [
    (day, { random }) => ({
      account: 'pos',
      type: 'CREDIT',
      cents: random.int(30_000, 250_000),
      description: `ACCREDITO POS NEXI ESERCENTE 0041${random.digits(5)} DEL ${day.dayBefore}`,
      clean: 'Incasso POS',
      counterpart: 'Nexi Payments S.p.A.',
      category: ['Ricavi', 'Vendite'],
      valueNextDay: true,
    }),
    30,
  ],
  [
    (_day, { random }) => ({
      account: 'main',
      type: 'CREDIT',
      cents: random.int(20_000, 150_000),
      description: `VERSAMENTO CONTANTI SPORTELLO ${random.digits(5)}`,
      clean: 'Versamento contanti',
      counterpart: null,
      category: ['Ricavi', 'Vendite'],
    }),
    10,
  ],
  [
    (day, { random }) => ({
      account: 'main',
      type: 'CREDIT',
      cents: random.int(15_000, 90_000),
      description: `BONIFICO SEPA DA CONSEGNE RAPIDE ITALIA S.R.L. CAUS. LIQUIDAZIONE ORDINI AL ${day.threeDaysBefore}`,
      clean: 'Liquidazione ordini a domicilio',
      counterpart: 'Consegne Rapide Italia S.r.l.',
      category: ['Ricavi', 'Consegne a domicilio'],
    }),
    5,
  ],
  [
    (_day, { random }) => {
      const [merchant, shop] = random.pick(MERCHANTS);
      return {
        account: 'main',
        type: 'DEBIT',
        cents: random.int(1_500, 40_000),
        description: `PAGAMENTO POS ${merchant} CARTA *${random.digits(4)}`,
        clean: `Acquisto ${shop}`,
        counterpart: shop,
        category: random.chance(0.8) ? ['Costi', 'Materiali di consumo'] : null,
      };
    },
    14,
  ],
  [
    (_day, { random, suppliers }) => {
      const supplier = random.pick(suppliers);
      return {
        account: 'main',
        type: 'DEBIT',
        cents: random.int(5_000, 180_000),
        description: `BONIFICO SEPA A FAVORE DI ${supplier.companyName.toUpperCase()} CAUS. ACCONTO FORNITURA`,
        clean: `Bonifico a ${supplier.companyName}`,
        counterpart: supplier.companyName,
        category: supplier.kind.category,
      };
    },
    8,
  ],
  [
    (day, { random, employees }) => {
      const employee = random.pick(employees);
      return {
        account: 'main',
        type: 'DEBIT',
        cents: random.int(110_000, 210_000),
        description: `BONIFICO SEPA A FAVORE DI ${employee.toUpperCase()} CAUS. STIPENDIO ${day.payrollMonth} ${day.year}`,
        clean: `Stipendio ${employee}`,
        counterpart: employee,
        category: ['Personale', 'Stipendi'],
      };
    },
    6,
  ],
  [
    (_day, { random }) => {
      const tax = random.weighted<readonly [string, CategoryPath]>([
        [['IVA', ['Tasse e imposte', 'IVA']], 3],
        [['CONTRIBUTI INPS', ['Personale', 'Contributi']], 3],
        [['IRES IRAP', ['Tasse e imposte', 'Imposte sui redditi']], 1],
        [['TARI', ['Tasse e imposte', 'Tributi locali']], 1],
      ]);
      return {
        account: 'main',
        type: 'DEBIT',
        cents: random.int(30_000, 450_000),
        description: `PAGAMENTO DELEGA F24 TELEMATICO PROT. ${random.digits(17)} ${tax[0]}`,
        clean: `F24 ${tax[0]}`,
        counterpart: 'Agenzia delle Entrate',
        category: tax[1],
      };
    },
    3,
  ],
  [
    (_day, { random }) => ({
      account: 'main',
      type: 'DEBIT',
      cents: random.int(500, 3_500),
      description: 'COMMISSIONI E SPESE TENUTA CONTO',
      clean: 'Spese tenuta conto',
      counterpart: 'Intesa Sanpaolo S.p.A.',
      category: ['Banca', 'Commissioni bancarie'],
    }),
    3,
  ],
  [
    (day, { random }) => ({
      account: 'pos',
      type: 'DEBIT',
      cents: random.int(2_000, 12_000),
      description: `COMMISSIONI POS NEXI MESE ${day.month}`,
      clean: 'Commissioni POS',
      counterpart: 'Nexi Payments S.p.A.',
      category: ['Banca', 'Commissioni POS'],
    }),
    2,
  ],
  [
    (_day, { random }) => ({
      account: 'main',
      type: 'DEBIT',
      cents: random.int(5, 50) * 1_000,
      description: `PRELIEVO BANCOMAT ATM ${random.digits(5)} BOLOGNA`,
      clean: 'Prelievo contanti',
      counterpart: null,
      category: null,
    }),
    2,
  ],
  [
    (_day, { random }) => ({
      account: 'main',
      type: 'CREDIT',
      cents: random.int(1, 900),
      description: 'INTERESSI CREDITORI DI COMPETENZA',
      clean: 'Interessi attivi',
      counterpart: null,
      category: ['Banca', 'Interessi'],
    }),
    0.5,
  ],
];

function transactionRow(movement: Movement, day: Day, context: MovementContext): Row {
  const category = movement.category ? context.categories(movement.category) : null;
  const accountId = context.accounts[movement.account];
  const bookedAt = atMinute(day.date, context.random.int(7 * 60, 19 * 60));
  context.balances.add(accountId, movement.type, movement.cents);
  return {
    id: randomUUID(),
    company_id: context.companyId,
    account_id: accountId,
    type: movement.type,
    amount: formatCents(movement.cents),
    currency: 'EUR',
    booking_date_time: bookedAt,
    date: day.date,
    value_date: movement.valueNextDay ? day.nextDate : day.date,
    description: movement.description,
    clean_description: movement.clean,
    counterpart_name: movement.counterpart,
    category_id: category?.categoryId,
    subcategory_id: category?.subcategoryId,
    created_at: bookedAt,
  };
}

/** Card takings kept on the POS account after the weekly sweep to the current account, in cents. */
const POS_FLOAT = 100_000;

/** Money moved between the company's own accounts: both legs, so every balance adds up. */
function transfer(
  from: keyof DemoAccounts,
  to: keyof DemoAccounts,
  cents: number,
  subcategory: CategoryPath,
  names: { from: string; to: string },
  companyName: string,
): Movement[] {
  return [
    {
      account: from,
      type: 'DEBIT',
      cents,
      description: `GIROCONTO A FAVORE ${names.to}`,
      clean: `Giroconto verso ${names.to.toLowerCase()}`,
      counterpart: companyName,
      category: subcategory,
    },
    {
      account: to,
      type: 'CREDIT',
      cents,
      description: `GIROCONTO DA ${names.from}`,
      clean: `Giroconto da ${names.from.toLowerCase()}`,
      counterpart: companyName,
      category: subcategory,
    },
  ];
}

/**
 * Transfers on a schedule: every Monday the week's card takings go from the POS account to the current account,
 * and on the 5th of each month money is set aside for taxes.
 */
function scheduledTransfers(day: Day, context: MovementContext): Movement[] {
  const { balances, accounts, random, companyName } = context;
  const weekday = new Date(`${day.date}T00:00:00Z`).getUTCDay();
  const takings = balances.of(accounts.pos) - POS_FLOAT;
  if (weekday === 1 && takings > 0) {
    return transfer(
      'pos',
      'main',
      takings,
      ['Giroconti', 'Trasferimenti tra conti'],
      { from: 'CONTO INCASSI POS', to: 'CONTO CORRENTE PRINCIPALE' },
      companyName,
    );
  }
  if (day.date.endsWith('-05')) {
    return transfer(
      'main',
      'savings',
      random.int(100, 400) * 1_000,
      ['Giroconti', 'Accantonamenti'],
      { from: 'CONTO CORRENTE PRINCIPALE', to: 'CONTO ACCANTONAMENTO IMPOSTE' },
      companyName,
    );
  }
  return [];
}

/**
 * `count` movements spread evenly over the year before `today`, day by day, in batches. Small batches are cheap to
 * collect: their rows die young, before the garbage collector would have to promote them.
 */
export function* generateMovements(context: MovementContext, count: number, batchSize = 1_000): Generator<Row[]> {
  let batch: Row[] = [];
  for (let daysAgo = DAYS; daysAgo >= 1; daysAgo--) {
    const day = dayOf(addDays(context.today, -daysAgo));
    const elapsed = DAYS - daysAgo;
    const onThisDay = Math.floor((count * (elapsed + 1)) / DAYS) - Math.floor((count * elapsed) / DAYS);
    const transfers = onThisDay >= 2 ? scheduledTransfers(day, context) : [];
    const movements = [...transfers, ...Array.from({ length: onThisDay - transfers.length }, () => context.random.weighted(TEMPLATES)(day, context))];
    for (const movement of movements) {
      batch.push(transactionRow(movement, day, context));
      if (batch.length === batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}
