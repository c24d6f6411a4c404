// The baseline of bench/api.mjs: the same transactions query the API runs for
// GET /companies/:id/transactions?filter[type]=…&sort=-date&page_size=25, served by node:http and pg alone.
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const money = (amount, currency) => ({ amount, currency: currency.trim() });

const server = http.createServer(async (request, response) => {
  try {
    const url = new URL(request.url, 'http://localhost');
    const companyId = url.pathname.split('/')[4];
    const type = url.searchParams.get('filter[type]');
    const { rows } = await pool.query(
      `SELECT id, account_id, type, amount, currency, booking_date_time, date::text AS date, value_date::text AS value_date,
              description, clean_description, counterpart_name, category_id, subcategory_id, created_at
         FROM transactions t WHERE t.company_id = $1 AND t.type = $2 ORDER BY t.date DESC, t.id DESC LIMIT 26`,
      [companyId, type],
    );
    const data = rows.slice(0, 25).map((t) => ({
      id: t.id,
      account_id: t.account_id,
      type: t.type,
      amount: money(t.amount, t.currency),
      booking_date_time: t.booking_date_time?.toISOString() ?? null,
      date: t.date,
      value_date: t.value_date,
      description: t.description,
      clean_description: t.clean_description,
      counterpart_name: t.counterpart_name,
      created_at: t.created_at.toISOString(),
      category_id: t.category_id,
      category: null,
      subcategory_id: t.subcategory_id,
      subcategory: null,
      reconciliations: null,
    }));
    const last = rows[24];
    const cursor = rows.length > 25 ? Buffer.from(JSON.stringify({ k: [last.date, last.id] })).toString('base64url') : null;
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify({ data, page: { cursor, size: 25 } }));
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
// Ended by the benchmark: exits on its own, so that a CPU profile (BENCH_CPU_PROF) is written.
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => pool.end().then(() => process.exit(0)));
});
