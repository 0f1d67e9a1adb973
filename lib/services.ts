/**
 * The handlers' dependencies, built once per process from the environment (config.ts) and reused
 * across invocations. Rebuilt only after setEnvironment() (config.ts), through which local mode and
 * tests point the process at another store or table, and which never happens on Lambda.
 */
import { KeyVerifier } from './auth/key-verifier.ts';
import { type Config, ENV, onEnvironmentChange, readConfig } from './config.ts';
import { DynamoDbApiKeyStore } from './store/dynamodb-api-key-store.ts';
import { createDocumentClient } from './store/dynamodb-client.ts';
import { DynamoDbPetStore } from './store/dynamodb-pet-store.ts';
import type { PetStore } from './store/pet-store.ts';

export interface Services {
  readonly config: Config;
  readonly pets: PetStore;
  readonly keys: KeyVerifier;
}

let current: Services | undefined;
onEnvironmentChange(() => {
  current = undefined;
});

/** Called twice a request (auth, handler): after the first, a field read. */
export function services(): Services {
  if (!current) {
    const config = readConfig();
    const client = createDocumentClient(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {});
    current = {
      config,
      pets: new DynamoDbPetStore(client, config.petsTable, config.idempotencyTable),
      keys: new KeyVerifier(new DynamoDbApiKeyStore(client, config.apiKeysTable), { cacheMs: config.keyCacheMs }),
    };
  }
  return current;
}

/**
 * Builds the services now if the environment names the tables, so the DynamoDB client is created
 * while the function module loads (Lambda's init phase, which runs on a full CPU) and not on the
 * first request. Without the variables (a test importing a handler early) it leaves that to services().
 */
export function prepareServices(): void {
  if (process.env[ENV.petsTable] && process.env[ENV.apiKeysTable]) services();
}
