import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { READINESS_PATH } from './config/api-version.js';
import { loadConfig } from './config/config.js';
import { preflight } from './processes/preflight.js';
import { runMain } from './config/run-main.js';
import { apiNodeFlags } from './processes/node-flags.js';
import { Supervisor } from './processes/supervisor.js';

/**
 * `npm start`: the whole product on one machine. Checks PostgreSQL and Redis, migrates and loads the demo company
 * (through the operator CLI, as an operator would), then runs API_PROCESSES API processes (sharing PORT through
 * node:cluster), WORKER_PROCESSES workers and the portal side by side, and prints where they are and the demo
 * credentials. A process that dies is started again (processes/supervisor.ts); SIGTERM or Ctrl-C stops them all, and
 * the exit code says whether they stopped cleanly.
 */
const PORTAL_PORT = Number(process.env.PORTAL_PORT ?? 3001);

/** remix-serve's line per request (`GET / 200 - - 12.3 ms`) and its start line: the summary below says where it is. */
const PORTAL_CHATTER = /^(\[remix-serve\] |[A-Z]+ \S+ \d{3} - - [\d.]+ ms$)/;

function demoCredentials(env: NodeJS.ProcessEnv): Promise<{ api_key: string; company_id: string; base_url: string }> {
  return new Promise((resolve, reject) => {
    const cli = spawn(process.execPath, ['dist/server/src/cli.js', 'demo', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    cli.stdout.on('data', (chunk) => (out += chunk));
    cli.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`loading the demo data failed (exit code ${code})`));
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`the demo command printed no JSON: ${out.slice(0, 200)}`));
      }
    });
  });
}

/** Waits until a URL answers, so the summary is printed once everything is up. */
async function answering(url: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    try {
      const response = await fetch(url);
      // Read to the end: a response left unread holds its connection busy, and the server's shutdown with it.
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within 30 seconds`);
}

runMain(async () => {
  const config = loadConfig();
  await preflight(config, true);
  const apiUrl = `http://localhost:${config.port}`;
  // The access log would bury the summary below: on one machine the processes log warnings and errors only.
  const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', FLUSSO_HOST_DEVELOPMENT: process.env.FLUSSO_HOST_DEVELOPMENT ?? apiUrl };
  const demo = await demoCredentials(env);

  const supervisor = new Supervisor([
    { name: 'API', script: 'dist/server/src/main.js', nodeFlags: apiNodeFlags(process.env.NODE_OPTIONS), env, count: config.processes.api, shared: true },
    { name: 'worker', script: 'dist/server/src/worker.js', env, count: config.processes.worker },
    {
      name: 'portal',
      script: '../node_modules/.bin/remix-serve',
      args: ['build/server/index.js'],
      // The portal starts the try-it panel and its samples from the demo company (FLUSSO_DEMO_COMPANY_ID).
      env: { ...env, PORT: String(PORTAL_PORT), FLUSSO_DEMO_COMPANY_ID: demo.company_id },
      cwd: 'portal',
      count: 1,
      quiet: PORTAL_CHATTER,
    },
  ]);
  const stop = () => void supervisor.stop(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  void supervisor.done.then((code) => process.exit(code));
  supervisor.start();
  try {
    await Promise.all([answering(`${apiUrl}${READINESS_PATH}`), answering(`http://localhost:${PORTAL_PORT}/`)]);
  } catch (error) {
    // Said here: stopping the processes ends this one (supervisor.done).
    console.error(`flusso: ${(error as Error).message}; stopping.`);
    await supervisor.stop(1);
    return;
  }

  const mail = config.mail.smtpUrl ? 'sent through the SMTP server of SMTP_URL' : `written as .eml files to ${resolve(config.mail.outboxDir)}/`;
  const rule = '='.repeat(78);
  console.log(
    [
      '',
      rule,
      'Flusso is running. Ctrl-C stops it.',
      '',
      `  API        ${apiUrl}/api/v1   (OpenAPI: ${apiUrl}/api/v1/openapi.json; ${config.processes.api} process(es), ${config.processes.worker} worker(s))`,
      `  Portal     http://localhost:${PORTAL_PORT}/   (its samples and try-it call this API)`,
      `  Company    ${demo.company_id}   (the demo company)`,
      `  API key    ${demo.api_key}`,
      `  E-mails    ${mail}`,
      '',
      `  Try: curl -H "Authorization: Bearer ${demo.api_key}" ${apiUrl}/api/v1/companies`,
      rule,
      '',
    ].join('\n'),
  );
});
