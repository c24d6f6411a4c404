import 'reflect-metadata';
import { runCli } from './cli/run-cli.js';

/** The operator CLI: `npm run -s cli -- --help`. */
process.exitCode = await runCli(process.argv.slice(2));
