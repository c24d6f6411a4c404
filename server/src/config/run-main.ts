import { ConfigError } from './config.js';

/** PostgreSQL or Redis does not answer (processes/preflight.ts says which, where, and how to start it). */
export class ServiceUnavailableError extends Error {}

/** Runs a process entry point; a configuration or service problem is one clear line and exit code 1, not a stack. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof ServiceUnavailableError) {
      console.error(`flusso: ${error.message}`);
    } else {
      console.error(error);
    }
    process.exit(1);
  });
}
