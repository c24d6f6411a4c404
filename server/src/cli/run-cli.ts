import { CommanderError } from 'commander';
import { ApiError } from '../common/errors/api-error.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { ServiceUnavailableError } from '../config/run-main.js';
import { CsvImportError } from '../imports/transactions-import.js';
import type { RowProblem } from '../imports/transactions-csv.js';
import { IntegratorsError } from '../integrators/integrators.service.js';
import { Operator } from './operator.js';
import { buildProgram } from './program.js';

export interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

const processOutput: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Problems the operator can fix: one clear message, no stack trace. */
function isOperatorProblem(error: unknown): error is Error & { problems?: RowProblem[] } {
  return [ConfigError, ServiceUnavailableError, IntegratorsError, CsvImportError, ApiError].some((type) => error instanceof type);
}

/** Commander's message without its own `error: ` prefix. */
function usageProblem(message: string): string {
  return message.trim().replace(/^error: /, '');
}

function problemLine(problem: RowProblem): string {
  return `  line ${problem.line}${problem.column ? `, ${problem.column}` : ''}: ${problem.message}`;
}

/** Runs one CLI command (`args` without node and the script) and returns the exit code. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = process.env, output: CliOutput = processOutput): Promise<number> {
  const json = args.includes('--json');
  let operator: Operator | undefined;
  try {
    operator = new Operator(loadConfig(env));
    const program = buildProgram(operator, output.out);
    // Every command, not only the root: a subcommand's own usage error (a missing option) would otherwise exit the
    // process from inside commander, past the JSON answer and the closing of connections.
    for (const command of [program, ...program.commands]) {
      command.exitOverride().configureOutput({
        writeOut: (text) => output.out(text.trimEnd()),
        writeErr: (text) => output.err(text.trimEnd()),
        // A usage mistake reads like every other mistake: one `flusso: …` line.
        outputError: (text, write) => write(`flusso: ${usageProblem(text)} (add --help for the commands and their options)`),
      });
    }
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already explained a usage error (or shown the help); a script asking for JSON gets it as JSON too.
    if (error instanceof CommanderError) {
      if (json && error.exitCode !== 0) output.out(JSON.stringify({ error: { message: usageProblem(error.message) } }));
      return error.exitCode;
    }
    if (!isOperatorProblem(error)) {
      output.err(error instanceof Error ? (error.stack ?? error.message) : String(error));
      if (json) output.out(JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error) } }));
      return 1;
    }
    output.err(`flusso: ${error.message}`);
    for (const problem of error.problems ?? []) output.err(problemLine(problem));
    if (json) output.out(JSON.stringify({ error: { message: error.message, ...(error.problems?.length ? { problems: error.problems } : {}) } }));
    return 1;
  } finally {
    await operator?.close();
  }
}
