import type { LoggerService } from '@nestjs/common';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import type { AppConfig } from '../../config/config.js';

export type { Logger } from 'pino';

/**
 * The one logger of each process: pino, one JSON object per line on standard output, at LOG_LEVEL. Request
 * lines carry `request_id`; nothing logs headers or bodies, and the paths below are removed should one slip in.
 */
export function createLogger(config: Pick<AppConfig, 'logLevel'>, process: 'api' | 'worker', destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { process },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: loggedError },
      redact: { paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'headers.cookie'], remove: true },
    },
    destination,
  );
}

/** An error as logged (`err`): its type, message, code and stack, and nothing else it carries (SQL parameters, say). */
export function loggedError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { type: error.constructor.name, message: error.message, ...(typeof code === 'string' && { code }), stack: error.stack };
}

/** Nest's own logging (bootstrap, `new Logger(context)` in services) through the process's pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /** Nest passes the context last and, for errors, a stack before it. */
  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const context = typeof rest.at(-1) === 'string' ? (rest.pop() as string) : undefined;
    const stack = (level === 'error' || level === 'fatal') && typeof rest[0] === 'string' ? rest[0] : undefined;
    if (message instanceof Error) this.logger[level]({ context, err: message }, message.message);
    else this.logger[level]({ context, stack }, typeof message === 'string' ? message : JSON.stringify(message));
  }
}
