/**
 * The handlers' dependencies, built once per process from the environment (config.ts) and reused
 * across invocations. Rebuilt only if the configuration changes, which happens in local mode and
 * tests when the runner is restarted on another store endpoint, never on Lambda.
 */
import { KeyVerifier } from './auth/key-verifier.ts';
import { type Config, ENV, readConfig } from './config.ts';
import { DynamoDbApiKeyStore } from './store/dynamodb-api-key-store.ts';
import { createDocumentClient } from './store/dynamodb-client.ts';
import { DynamoDbPetStore } from './store/dynamodb-pet-store.ts';
import type { PetStore } from './store/pet-store.ts';

export interface Services {
  readonly config: Config;
  readonly pets: PetStore;
  readonly keys: KeyVerifier;
}

/** The variables the services are built from. */
const BUILT_FROM = [ENV.petsTable, ENV.apiKeysTable, ENV.idempotencyTable, ENV.dynamodbEndpoint, ENV.keyCacheSeconds] as const;

let current: { builtFrom: readonly (string | undefined)[]; services: Services } | undefined;

/** Called twice a request (auth, handler): compares the variables in place, with no allocation and no parsing. */
function builtFromCurrentEnvironment(builtFrom: readonly (string | undefined)[]): boolean {
  for (let i = 0; i < BUILT_FROM.length; i++) if (process.env[BUILT_FROM[i] as string] !== builtFrom[i]) return false;
  return true;
}

export function services(): Services {
  if (!current || !builtFromCurrentEnvironment(current.builtFrom)) {
    const config = readConfig();
    const client = createDocumentClient(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {});
    current = {
      builtFrom: BUILT_FROM.map((name) => process.env[name]),
      services: {
        config,
        pets: new DynamoDbPetStore(client, config.petsTable, config.idempotencyTable),
        keys: new KeyVerifier(new DynamoDbApiKeyStore(client, config.apiKeysTable), { cacheMs: config.keyCacheMs }),
      },
    };
  }
  return current.services;
}

/**
 * Builds the services now if the environment names the tables, so the DynamoDB client is created
 * while the function module loads (Lambda's init phase, which runs on a full CPU) and not on the
 * first request. Without the variables (a test importing a handler early) it leaves that to services().
 */
export function prepareServices(): void {
  if (process.env[ENV.petsTable] && process.env[ENV.apiKeysTable]) services();
}
