/** JSON-lines logging. */

import { sourceMappedStack } from './source-mapped-stack.ts';

/** The levels, least severe first: the functions' LOG_LEVEL, and the stage setting `logLevel`. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogSink = (line: string) => void;

let sink: LogSink = (line) => process.stdout.write(`${line}\n`);

/** Redirects log output (the local runner can silence it; tests capture it). Returns the old sink. */
export function setLogSink(next: LogSink): LogSink {
  const previous = sink;
  sink = next;
  return previous;
}

let threshold = LEVELS.info;

/** The least severe level written; info until the services are built (services.ts, from LOG_LEVEL). */
export function setLogLevel(level: LogLevel): void {
  threshold = LEVELS[level];
}

/** Whether a line of this level is written: lets a caller skip building fields nobody will see. */
export function isLogged(level: LogLevel): boolean {
  return LEVELS[level] >= threshold;
}

export function log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
  if (!isLogged(level)) return;
  sink(JSON.stringify({ timestamp: new Date().toISOString(), level, message, ...fields }));
}

/**
 * The parts of an error worth logging: name, message, AWS error metadata, the cause's name and
 * code, and, for bugs, the stack. Error messages of our own never contain keys or headers.
 */
export function describeError(error: unknown, options: { stack?: boolean } = {}): Record<string, unknown> {
  if (!(error instanceof Error)) return { errorName: typeof error, errorMessage: String(error) };
  const cause = error.cause as (Error & { code?: string; $metadata?: { httpStatusCode?: number } }) | undefined;
  const status = cause?.$metadata?.httpStatusCode ?? (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return {
    errorName: error.name,
    errorMessage: error.message,
    ...(cause instanceof Error ? { causeName: cause.name, ...(cause.code ? { causeCode: cause.code } : {}) } : {}),
    ...(status ? { dependencyStatus: status } : {}),
    ...(options.stack === false || error.stack === undefined ? {} : { stack: sourceMappedStack(error.stack) }),
  };
}
