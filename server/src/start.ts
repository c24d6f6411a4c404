import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from './config/config.js';
import { preflight } from './config/preflight.js';
import { runMain } from './config/run-main.js';

/**
 * `npm start`: the whole product on one machine. Checks PostgreSQL and Redis, migrates and loads the demo company
 * (through the operator CLI, as an operator would), then runs the API, the worker and the portal side by side and
 * prints where they are and the demo credentials. Ctrl-C stops all three; if one of them dies, the others stop too.
 */
const PORTAL_PORT = Number(process.env.PORTAL_PORT ?? 3001);

/** remix-serve's line per request (`GET / 200 - - 12.3 ms`) and its start line: the summary below says where it is. */
const PORTAL_CHATTER = /^(\[remix-serve\] |[A-Z]+ \S+ \d{3} - - [\d.]+ ms$)/;

function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string, quiet?: RegExp): ChildProcess {
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', quiet ? 'pipe' : 'inherit', 'inherit'] });
  if (quiet) {
    // Line by line, so that what the process says beside its chatter (a warning, a stack) still shows.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!quiet.test(line)) console.log(line);
    });
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`flusso: the ${name} stopped (${signal ?? `exit code ${code}`}); stopping the others.`);
      stop(1);
    }
  });
  return child;
}

let stopping = false;
const children: ChildProcess[] = [];

function stop(code: number): void {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 1500).unref();
}

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
  for (let attempt = 0; attempt < 150 && !stopping; attempt++) {
    try {
      if ((await fetch(url)).status < 500) return;
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

  children.push(run('API', process.execPath, ['dist/server/src/main.js'], env));
  children.push(run('worker', process.execPath, ['dist/server/src/worker.js'], env));
  // The portal starts the try-it panel and its samples from the demo company (FLUSSO_DEMO_COMPANY_ID).
  const portalEnv = { ...env, PORT: String(PORTAL_PORT), FLUSSO_DEMO_COMPANY_ID: demo.company_id };
  children.push(run('portal', process.execPath, ['../node_modules/.bin/remix-serve', 'build/server/index.js'], portalEnv, 'portal', PORTAL_CHATTER));
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  await Promise.all([answering(`${apiUrl}/api/v1/openapi.json`), answering(`http://localhost:${PORTAL_PORT}/`)]);

  const mail = config.mail.smtpUrl ? 'sent through the SMTP server of SMTP_URL' : `written as .eml files to ${resolve(config.mail.outboxDir)}/`;
  const rule = '='.repeat(78);
  console.log(
    [
      '',
      rule,
      'Flusso is running. Ctrl-C stops it.',
      '',
      `  API        ${apiUrl}/api/v1   (OpenAPI: ${apiUrl}/api/v1/openapi.json)`,
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
