import { pino, type DestinationStream } from 'pino';

/** Structured logger used across the engine. Fields are data, never interpolated into the message. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `bindings` to every line. */
  child(bindings: Record<string, unknown>): Logger;
}

/** Log levels, quietest last. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; defaults to stdout. Tests pass a stream to capture them. */
  destination?: DestinationStream;
  name?: string;
}

/**
 * Keys whose values are never written, at any of the depths pino checks. Secrets are also kept out
 * of log calls at the source; this list is the second line of defence.
 */
export const REDACTED_LOG_KEYS = [
  'authorization',
  'password',
  'newPassword',
  'token',
  'accessToken',
  'refreshToken',
  'reAuthToken',
  'plainKey',
  'plainSecret',
  'clientSecret',
  'client_secret',
  'secret',
  'cookie',
] as const;

function redactPaths(): string[] {
  const paths: string[] = [];
  for (const key of REDACTED_LOG_KEYS) paths.push(key, `*.${key}`, `*.*.${key}`, `headers["${key}"]`);
  return paths;
}

class PinoLogger implements Logger {
  constructor(private readonly target: pino.Logger) {}
  debug(message: string, fields?: Record<string, unknown>): void {
    this.target.debug(fields ?? {}, message);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.target.info(fields ?? {}, message);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.target.warn(fields ?? {}, message);
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.target.error(fields ?? {}, message);
  }
  child(bindings: Record<string, unknown>): Logger {
    return new PinoLogger(this.target.child(bindings));
  }
}

/**
 * Creates the engine's JSON logger (pino) with secret redaction.
 *
 * @example
 * const logger = createLogger({ level: 'info' });
 * logger.info('server listening', { port: 4241 });
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const base = pino(
    {
      level: options.level ?? 'info',
      name: options.name ?? 'wildo',
      redact: { paths: redactPaths(), censor: '[redacted]' },
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
  return new PinoLogger(base);
}

/** A logger that discards everything (tests that do not look at logs). */
export function createSilentLogger(): Logger {
  return createLogger({ level: 'silent' });
}
