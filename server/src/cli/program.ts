import { readFile } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEMO_COMPANY } from '../demo/catalogue.js';
import { DATA_SET_DEFAULTS } from '../demo/data-set.js';
import { seedDemo } from '../demo/seed-demo.js';
import { CsvImportError, importTransactions } from '../imports/transactions-import.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/validation/uuid.js';
import { ALL_PERMISSIONS } from '../common/auth/permissions.js';
import { apiEnumValues } from '../common/listing/api-enum.js';
import { DELIVERY_STATUSES } from '../deliveries/delivery.entity.js';
import type { KeyView } from '../integrators/integrators.service.js';
import { BASE_PATH } from '../config/api-version.js';
import { fleetStatus, type FleetStatus } from './fleet-status.js';
import type { Operator } from './operator.js';
import { EVENT_TYPES } from '../webhooks/enabled-events.js';

/**
 * The operator CLI: `npm run -s cli -- <command> [--json]`. Every command prints a short text for people, or with
 * `--json` exactly one JSON object on stdout for scripts; problems go to stderr and exit with code 1.
 */

/** What a command did: the JSON object, and the same for people. */
export interface Outcome {
  json: object;
  text: string;
}

export type Print = (line: string) => void;

function wholeNumber(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed)) throw new InvalidArgumentError('Not a whole number.');
  return parsed;
}

/** A page size, as the API takes it: 1 to 100 (said, not quietly clamped). */
function pageSize(value: string): number {
  const parsed = wholeNumber(value);
  if (parsed < 1 || parsed > 100) throw new InvalidArgumentError('Not from 1 to 100.');
  return parsed;
}

function command(program: Command, name: string, description: string): Command {
  return program.command(name).description(description).option('--json', 'print one JSON object on stdout');
}

function keyLine(key: KeyView): string {
  const state = key.revoked_at ? `revoked ${key.revoked_at}` : key.expires_at ? `rolled, works until ${key.expires_at}` : 'active';
  const used = key.last_used_at ? `last used ${key.last_used_at}` : 'never used';
  return `${key.id}  ${key.lookup}…  ${key.environment.padEnd(11)}  ${key.name.padEnd(12)}  created ${key.created_at}  ${used}  ${state}  [${key.permissions.join(',')}]`;
}

export function buildProgram(operator: Operator, print: Print): Command {
  const program = new Command('flusso').description(
    'Flusso operator commands: migrations, integrators, API keys, companies, demo data, imports, webhook endpoints.',
  );

  /** Runs a command's work with commander's arguments (options last) and prints its outcome as JSON or text. */
  const run =
    <A extends unknown[]>(work: (...args: A) => Promise<Outcome>) =>
    async (...args: unknown[]) => {
      const invoked = args[args.length - 1] as Command;
      const outcome = await work(...(args.slice(0, -1) as A));
      print(invoked.opts().json ? JSON.stringify(outcome.json) : outcome.text);
    };

  command(program, 'migrate', 'Run pending database migrations (creates the database if it is missing).').action(
    run(async () => {
      const migrations = await operator.migrate();
      const text = migrations.length ? `Ran ${migrations.length} migration(s): ${migrations.join(', ')}.` : 'The database is up to date.';
      return { json: { migrations }, text };
    }),
  );

  command(program, 'integrator:create', 'Create an integrator (a third-party system that calls the API).')
    .requiredOption('--name <name>', "the integrator's name")
    .option('--email <email>', 'a contact e-mail')
    .action(
      run(async (options: { name: string; email?: string }) => {
        const integrator = await (await operator.integrators()).createIntegrator(options.name, options.email);
        return { json: integrator, text: `Integrator "${integrator.name}" created: ${integrator.id}` };
      }),
    );

  command(program, 'key:create', 'Create an API key for an integrator; the key is shown once.')
    .requiredOption('--integrator <id>', "the integrator's id")
    .option('--name <name>', 'a name to recognise the key by', 'default')
    .option('--permissions <list>', `what the key may do, comma-separated (write implies read): ${ALL_PERMISSIONS.join(', ')}`, '*')
    .addOption(
      new Option('--environment <environment>', `the key's environment (default: FLUSSO_ENV, now ${operator.config.environment})`).choices([
        'development',
        'production',
      ]),
    )
    .action(
      run(async (options: { integrator: string; name: string; permissions: string; environment?: 'development' | 'production' }) => {
        const key = await (await operator.integrators()).createKey(options.integrator, options.environment, options.name, options.permissions);
        return {
          json: key,
          text: `API key created; it is shown only now, store it safely:\n\n  ${key.key}\n\n${keyLine(key)}`,
        };
      }),
    );

  command(program, 'key:list', 'List API keys (never their secrets).')
    .option('--integrator <id>', "only this integrator's keys")
    .action(
      run(async (options: { integrator?: string }) => {
        const keys = await (await operator.integrators()).listKeys(options.integrator);
        return { json: { keys }, text: keys.length ? keys.map(keyLine).join('\n') : 'No API keys.' };
      }),
    );

  command(program, 'key:revoke', 'Revoke an API key at once, in every running API process.')
    .argument('<id>', "the key's id (see key:list)")
    .action(
      run(async (id: string) => {
        const key = await (await operator.integrators()).revokeKey(id);
        // Endpoints belong to the integrator and keep receiving; if the key leaked, the ones it chose need a look.
        const endpoints = (await (await operator.webhooks()).listAll(key.integrator_id)).filter((e) => e.api_key_id === key.id);
        const warning = endpoints.length
          ? `\nWebhook endpoints this key registered or last pointed somewhere keep receiving events; if the key leaked, check them (webhook:remove removes one):\n${endpoints.map((e) => `  ${e.id}  ${e.url}  [${e.environment}]`).join('\n')}`
          : '';
        return { json: { ...key, webhook_endpoints: endpoints }, text: `Revoked: ${keyLine(key)}${warning}` };
      }),
    );

  command(program, 'company:create', 'Create a company.')
    .requiredOption('--name <name>', "the company's name")
    .option('--vat-number <vat>', 'VAT number; eleven digits alone are an Italian partita IVA')
    .option('--tax-number <cf>', "its codice fiscale when that is not its partita IVA (a sole trader's 16 characters)")
    .option('--country <code>', 'ISO 3166-1 alpha-2 country code', 'IT')
    .option('--fiscal-regime <code>', 'FatturaPA RegimeFiscale, RF01 to RF20', 'RF01')
    .action(
      run(async (options: { name: string; vatNumber?: string; taxNumber?: string; country: string; fiscalRegime: string }) => {
        const company = await (
          await operator.integrators()
        ).createCompany({
          name: options.name,
          vat_number: options.vatNumber,
          tax_number: options.taxNumber,
          country: options.country,
          fiscal_regime: options.fiscalRegime,
        });
        return { json: company, text: `Company "${company.name}" created: ${company.id}` };
      }),
    );

  command(program, 'company:tax-number', "Record a company's own codice fiscale (a sole trader's), or clear it.")
    .requiredOption('--company <id>', "the company's id")
    .option('--tax-number <cf>', '16 characters, or 11 digits; left out, the codice fiscale recorded is cleared')
    .action(
      run(async (options: { company: string; taxNumber?: string }) => {
        const company = await (await operator.integrators()).setCompanyTaxNumber(options.company, options.taxNumber ?? null);
        return { json: company, text: `Company "${company.name}": codice fiscale ${company.tax_number ?? 'none (its partita IVA serves)'}.` };
      }),
    );

  command(program, 'company:grant', "Let an integrator's keys act inside a company.")
    .requiredOption('--integrator <id>', "the integrator's id")
    .requiredOption('--company <id>', "the company's id")
    .action(
      run(async (options: { integrator: string; company: string }) => {
        const grant = await (await operator.integrators()).grant(options.integrator, options.company);
        return { json: grant, text: `Integrator ${grant.integrator_id} may now act in company ${grant.company_id}.` };
      }),
    );

  command(program, 'demo', 'Migrate, load the demo company (once) and print a new API key for it.')
    .option('--transactions <n>', 'bank transactions in a new demo company', wholeNumber, DATA_SET_DEFAULTS.transactions)
    .option('--documents <n>', 'documents in a new demo company', wholeNumber, DATA_SET_DEFAULTS.documents)
    .option('--seed <n>', 'seed of the generated data', wholeNumber, DATA_SET_DEFAULTS.seed)
    .option('--reset', 'delete the demo company and build it again (to change its size)')
    .action(
      run(async (options: { transactions: number; documents: number; seed: number; reset?: boolean }) => {
        await operator.migrate();
        const demo = await seedDemo(await operator.db(), { ...options, settings: operator.config, invalidateAuth: operator.invalidateAuth });
        const baseUrl = `http://localhost:${operator.config.port}${BASE_PATH}`;
        const loaded = demo.counts
          ? `loaded: ${Object.entries(demo.counts)
              .map(([what, n]) => `${n} ${what.replace('_', ' ')}`)
              .join(', ')}`
          : 'already there, reused as it is (--reset to rebuild it)';
        return {
          json: {
            api_key: demo.apiKey,
            key_id: demo.keyId,
            company_id: demo.companyId,
            integrator_id: demo.integratorId,
            account_ids: demo.accountIds,
            base_url: baseUrl,
            seeded: demo.seeded,
            counts: demo.counts,
          },
          text: [
            `Demo company "${DEMO_COMPANY.name}" (${demo.companyId}) ${loaded}.`,
            `Base URL:  ${baseUrl}`,
            `API key:   ${demo.apiKey}   (new on every run; shown only now)`,
            `Try:       curl -H "Authorization: Bearer ${demo.apiKey}" ${baseUrl}/companies`,
          ].join('\n'),
        };
      }),
    );

  command(program, 'transactions:import', 'Import bank transactions for an account from a CSV file (all rows or none).')
    .requiredOption('--company <id>', "the company's id")
    .requiredOption('--account <id>', "the account's id")
    .requiredOption('--file <path>', 'the CSV file; columns: see the README')
    .action(
      run(async (options: { company: string; account: string; file: string }) => {
        const csv = await readFile(options.file, 'utf8').catch((error: Error) => {
          throw new CsvImportError(`Cannot read ${options.file}: ${error.message}`);
        });
        const result = await importTransactions(await operator.db(), { companyId: options.company, accountId: options.account, csv });
        return {
          json: result,
          text: `Imported ${result.imported} transaction(s) into account ${result.account_id}; ${result.reconciled} reconciled with e-invoices by their reconciliation_identifier.`,
        };
      }),
    );

  command(program, 'invoices:receive', "Hand a company a supplier's e-invoice as the SDI would: it becomes a RECEIVED document.")
    .requiredOption('--company <id>', "the company's id: the invoice's buyer")
    .argument('<file>', 'the FatturaPA file: XML, or a signed .p7m carrying it')
    .action(
      run(async (file: string, options: { company: string }) => {
        const bytes = await readFile(file).catch((error: Error) => {
          throw ApiError.of('bad_request', `Cannot read ${file}: ${error.message}`);
        });
        if (!isUuid(options.company)) throw ApiError.notFound('Company');
        const db = await operator.db();
        const [company] = await db.query('SELECT id FROM companies WHERE id = $1', [options.company]);
        if (!company) throw ApiError.notFound('Company');
        const kind = file.toLowerCase().endsWith('.p7m') ? 'signed' : 'xml';
        const [document] = await (await operator.invoices()).receive(options.company, { kind, bytes });
        return {
          json: document,
          text: `Received invoice ${document.number} as document ${document.id} (${document.direction}, ${document.status}, ${document.flows?.length ?? 0} flow(s)), file ${document.file_name}.`,
        };
      }),
    );

  const endpointLine = (e: { id: string; url: string; enabled: boolean; disabled_reason: string | null; description: string; enabled_events: string[] }) =>
    `${e.id}  ${(e.enabled ? 'enabled' : `disabled (${e.disabled_reason})`).padEnd(20)}  ${e.url}${e.description ? `  "${e.description}"` : ''}  events: ${e.enabled_events.join(',')}`;

  command(program, 'webhook:add', 'Register a webhook endpoint for an integrator; its signing secret is shown once.')
    .requiredOption('--integrator <id>', "the integrator's id")
    .requiredOption('--url <url>', 'where events are sent (https; in development also http and loopback)')
    .option('--description <text>', 'a note to recognise the endpoint by', '')
    .option('--events <types>', `the event types it receives, comma-separated (${EVENT_TYPES.join(', ')}); default * (every type)`)
    .addOption(
      new Option('--environment <environment>', `the endpoint's environment (default: FLUSSO_ENV, now ${operator.config.environment})`).choices([
        'development',
        'production',
      ]),
    )
    .action(
      run(async (options: { integrator: string; url: string; description: string; events?: string; environment?: 'development' | 'production' }) => {
        const enabledEvents = options.events?.split(',').map((type) => type.trim());
        const endpoint = await (
          await operator.webhooks()
        ).create(
          { integratorId: options.integrator, environment: options.environment ?? operator.config.environment },
          { ...options, enabled_events: enabledEvents },
        );
        return {
          json: endpoint,
          text: `Webhook endpoint created; its signing secret is shown only now:\n\n  ${endpoint.secret}\n\n${endpointLine(endpoint)}`,
        };
      }),
    );

  command(program, 'webhook:list', 'List webhook endpoints (never their secrets).')
    .option('--integrator <id>', "only this integrator's endpoints")
    .action(
      run(async (options: { integrator?: string }) => {
        const endpoints = await (await operator.webhooks()).listAll(options.integrator);
        return {
          json: { endpoints },
          text: endpoints.length
            ? endpoints.map((e) => `${endpointLine(e)}  [${e.environment}, integrator ${e.integrator_id}]`).join('\n')
            : 'No webhook endpoints.',
        };
      }),
    );

  command(program, 'webhook:rotate-secret', 'Give an endpoint a new signing secret (shown once); the old one keeps signing for 24 hours.')
    .argument('<id>', "the endpoint's id (see webhook:list)")
    .action(
      run(async (id: string) => {
        const endpoint = await (await operator.webhooks()).rotateSecret({}, id);
        return { json: endpoint, text: `New signing secret, shown only now:\n\n  ${endpoint.secret}\n\n${endpointLine(endpoint)}` };
      }),
    );

  for (const [name, enabled, description] of [
    ['webhook:disable', false, 'Stop sending events to an endpoint.'],
    ['webhook:enable', true, 'Send events to an endpoint again (also one Flusso disabled) and resume its pending deliveries.'],
  ] as const) {
    command(program, name, description)
      .argument('<id>', "the endpoint's id (see webhook:list)")
      .action(
        run(async (id: string) => {
          const endpoint = await (await operator.webhooks()).update({}, id, { enabled });
          return { json: endpoint, text: endpointLine(endpoint) };
        }),
      );
  }

  command(program, 'webhook:remove', 'Delete an endpoint with its deliveries.')
    .argument('<id>', "the endpoint's id (see webhook:list)")
    .action(
      run(async (id: string) => {
        const endpoint = await (await operator.webhooks()).remove({}, id);
        return { json: endpoint, text: `Removed: ${endpointLine(endpoint)}` };
      }),
    );

  const statuses: string[] = apiEnumValues(DELIVERY_STATUSES);
  // The lowercase spelling the CLI took before the API's enums became uppercase is still understood.
  const deliveryStatus = (value: string) => {
    if (!statuses.includes(value.toUpperCase())) throw new InvalidArgumentError(`Allowed choices are ${statuses.join(', ')}.`);
    return value.toUpperCase();
  };

  command(
    program,
    'webhook:deliveries',
    "Show an endpoint's deliveries, newest first, with every attempt (UNKNOWN: cut off, or its worker stopped, before the outcome was known; the endpoint may have the event twice).",
  )
    .argument('<id>', "the endpoint's id (see webhook:list)")
    .addOption(new Option('--status <status>', `only deliveries in this state: ${statuses.join(', ')}`).argParser(deliveryStatus))
    .option('--limit <n>', 'how many, 1 to 100', pageSize, 25)
    .action(
      run(async (id: string, options: { status?: string; limit: number }) => {
        const params = { page_size: String(options.limit), ...(options.status ? { 'filter[status]': options.status } : {}) };
        const { data: deliveries } = await (await operator.webhooks()).listDeliveries({}, id, params);
        const lines = deliveries.flatMap((d) => [
          `${d.created_at}  ${d.status.padEnd(9)}  event ${d.event_id}${d.next_attempt_at ? `  next attempt ${d.next_attempt_at}` : ''}`,
          ...d.attempts.map(
            (a) => `    ${a.attempted_at}  ${a.outcome.padEnd(9)}  ${a.response_status ?? '---'}  ${a.duration_ms} ms${a.error ? `  ${a.error}` : ''}`,
          ),
        ]);
        return { json: { deliveries }, text: lines.length ? lines.join('\n') : 'No deliveries.' };
      }),
    );

  command(
    program,
    'status',
    "The installation at a glance: the outbox, the deliveries, disabled webhook endpoints, e-invoices waiting for the SDI, the queues, PostgreSQL's connections, and what asks for attention.",
  ).action(
    run(async () => {
      const status = await fleetStatus(await operator.db(), operator.config, new Date());
      return { json: status, text: statusText(status) };
    }),
  );

  return program;
}

function statusText(status: FleetStatus): string {
  const { outbox, deliveries, queues, database } = status;
  const disabled = Object.entries(status.webhook_endpoints_disabled);
  const sdi = status.e_invoices_waiting_for_sdi;
  const used = database.connections.reduce((sum, { connections }) => sum + connections, 0);
  return [
    `outbox       ${outbox.events_waiting} event(s) waiting${outbox.oldest_waiting_since ? `, the oldest since ${outbox.oldest_waiting_since}` : ''}`,
    `deliveries   ${
      deliveries.length
        ? deliveries.map((d) => `${d.channel}: ${d.pending} pending, ${d.overdue} overdue, ${d.failed_last_24_hours} failed in 24 h`).join('; ')
        : 'none pending or failed in 24 h'
    }`,
    `endpoints    ${disabled.length ? `disabled: ${disabled.map(([reason, n]) => `${n} ${reason}`).join(', ')}` : 'none disabled'}`,
    `SDI          ${sdi.count} e-invoice(s) waiting${sdi.oldest_since ? `, the oldest since ${sdi.oldest_since}` : ''}`,
    `queues       ${
      queues
        ? Object.entries(queues)
            .map(([name, c]) => `${name}: ${c.waiting} waiting, ${c.active} active, ${c.delayed} delayed, ${c.failed} failed`)
            .join('; ')
        : 'Redis did not answer'
    }`,
    `PostgreSQL   ${used} of ${database.max_connections} connections (${database.connections.map((c) => `${c.application} ${c.connections}`).join(', ')})`,
    status.attention.length ? `attention\n${status.attention.map((line) => `  - ${line}`).join('\n')}` : 'attention    nothing',
  ].join('\n');
}
