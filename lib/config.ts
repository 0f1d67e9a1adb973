/**
 * Runtime configuration: one object read from the environment (readConfig), from which the
 * handlers' services are built once per instance (services.ts).
 */
import { LOG_LEVELS, type LogLevel } from './log.ts';

/** Names of the environment variables, shared with the CDK app and the local runner. */
export const ENV = {
  petsTable: 'PETS_TABLE_NAME',
  apiKeysTable: 'API_KEYS_TABLE_NAME',
  /** Only createPet needs it (Idempotency-Key); the other functions do not get it. */
  idempotencyTable: 'IDEMPOTENCY_TABLE_NAME',
  /** Only for local mode and tests: a DynamoDB-compatible endpoint instead of AWS's. */
  dynamodbEndpoint: 'PETSTORE_DYNAMODB_ENDPOINT',
  /** Only for local mode and tests: multiplies its timeouts (local store client, functions, server) on a busy machine. */
  timeoutScale: 'PETSTORE_TIMEOUT_SCALE',
  /** Seconds an API key lookup may be cached; capped at 60 so a revocation bites within a minute. */
  keyCacheSeconds: 'API_KEY_CACHE_SECONDS',
  /** debug, info (the default), warn or error. */
  logLevel: 'LOG_LEVEL',
  /** Browser origins the pet operations answer with CORS headers, comma-separated; unset: none. */
  allowedOrigins: 'ALLOWED_ORIGINS',
  /** Only the pre-traffic hook (functions/pre-traffic.ts): the ARN of the version it checks. */
  preTrafficTarget: 'PRE_TRAFFIC_TARGET',
  /** The stage's rate-limit headers as a JSON object (lib/http/response.ts rateLimitHeaders); unset: none. */
  rateLimitHeaders: 'RATE_LIMIT_HEADERS',
  /** The namespace of the request line's embedded metrics (lib/http/request-line.ts): the stack's name; unset: none. */
  metricsNamespace: 'METRICS_NAMESPACE',
} as const;

export interface Config {
  /**
   * Required by the stores (services.ts), not by the configuration itself: CORS and the log level
   * still apply to the 500 a function without its tables answers.
   */
  readonly petsTable: string | undefined;
  readonly apiKeysTable: string | undefined;
  readonly idempotencyTable: string | undefined;
  readonly dynamodbEndpoint: string | undefined;
  readonly keyCacheMs: number;
  readonly logLevel: LogLevel;
  /** Empty: CORS is off. */
  readonly allowedOrigins: ReadonlySet<string>;
  readonly rateLimitHeaders: Readonly<Record<string, string>>;
}

export const MAX_KEY_CACHE_SECONDS = 60;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cacheSeconds = Number(env[ENV.keyCacheSeconds] ?? MAX_KEY_CACHE_SECONDS);
  const logLevel = LOG_LEVELS.find((level) => level === env[ENV.logLevel]?.toLowerCase()) ?? 'info';
  return {
    petsTable: env[ENV.petsTable] || undefined,
    apiKeysTable: env[ENV.apiKeysTable] || undefined,
    idempotencyTable: env[ENV.idempotencyTable] || undefined,
    dynamodbEndpoint: env[ENV.dynamodbEndpoint] || undefined,
    keyCacheMs:
      Number.isFinite(cacheSeconds) && cacheSeconds >= 0
        ? Math.min(cacheSeconds, MAX_KEY_CACHE_SECONDS) * 1000
        : MAX_KEY_CACHE_SECONDS * 1000,
    logLevel,
    allowedOrigins: new Set(
      (env[ENV.allowedOrigins] ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    ),
    rateLimitHeaders: JSON.parse(env[ENV.rateLimitHeaders] || '{}'),
  };
}

/** PETSTORE_TIMEOUT_SCALE, 1 when unset or below 1. */
export const timeoutScale = (env: NodeJS.ProcessEnv = process.env): number => Math.max(1, Number(env[ENV.timeoutScale]) || 1);

/** A table name the stores need, or an error naming its variable. */
export function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}
