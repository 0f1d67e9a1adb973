/**
 * Runtime configuration, read once from the environment. The CDK app sets these variables on each
 * function; the local runner sets them before it imports the handlers.
 */

const forgetters = new Set<() => void>();

/**
 * What is read from the environment is read once and kept, as Lambda fixes a function's environment
 * for its instance's life: a request would otherwise read a dozen variables, ~0.2 µs each, through
 * process.env's native lookup. `forget` drops what its module read, so the next use reads again.
 */
export function onEnvironmentChange(forget: () => void): void {
  forgetters.add(forget);
}

/**
 * How local mode and the tests change the environment in one process (another store, another
 * table, another log level): sets each variable (undefined removes it), and the next request reads
 * the variables anew. Assigning process.env directly would go unseen.
 */
export function setEnvironment(vars: Readonly<Record<string, string | undefined>>): void {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  for (const forget of forgetters) forget();
}

/** Names of the environment variables, shared with the CDK app and the local runner. */
export const ENV = {
  petsTable: 'PETS_TABLE_NAME',
  apiKeysTable: 'API_KEYS_TABLE_NAME',
  /** Only createPet needs it (Idempotency-Key); the other functions do not get it. */
  idempotencyTable: 'IDEMPOTENCY_TABLE_NAME',
  /** Only for local mode and tests: a DynamoDB-compatible endpoint instead of AWS's. */
  dynamodbEndpoint: 'PETSTORE_DYNAMODB_ENDPOINT',
  /** Seconds an API key lookup may be cached; capped at 60 so a revocation bites within a minute. */
  keyCacheSeconds: 'API_KEY_CACHE_SECONDS',
  logLevel: 'LOG_LEVEL',
  /** Browser origins the pet operations answer with CORS headers, comma-separated; unset: none. */
  allowedOrigins: 'ALLOWED_ORIGINS',
} as const;

export interface Config {
  readonly petsTable: string;
  readonly apiKeysTable: string;
  readonly idempotencyTable: string | undefined;
  readonly dynamodbEndpoint: string | undefined;
  readonly keyCacheMs: number;
}

export const MAX_KEY_CACHE_SECONDS = 60;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cacheSeconds = Number(env[ENV.keyCacheSeconds] ?? MAX_KEY_CACHE_SECONDS);
  return {
    petsTable: required(env, ENV.petsTable),
    apiKeysTable: required(env, ENV.apiKeysTable),
    idempotencyTable: env[ENV.idempotencyTable] || undefined,
    dynamodbEndpoint: env[ENV.dynamodbEndpoint] || undefined,
    keyCacheMs:
      Number.isFinite(cacheSeconds) && cacheSeconds >= 0
        ? Math.min(cacheSeconds, MAX_KEY_CACHE_SECONDS) * 1000
        : MAX_KEY_CACHE_SECONDS * 1000,
  };
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}
