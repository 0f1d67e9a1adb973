// Built once per Lambda module load; local mode and tests rebuild them with reconfigure().
import { KeyVerifier } from './auth/key-verifier.ts';
import { type Config, ENV, readConfig, required } from './config.ts';
import { setLogLevel } from './log.ts';
import { DynamoDbApiKeyStore } from './store/dynamodb-api-key-store.ts';
import { createDocumentClient } from './store/dynamodb-client.ts';
import { DynamoDbPetStore } from './store/dynamodb-pet-store.ts';
import type { PetStore } from './store/pet-store.ts';

export interface Services {
  readonly config: Config;
  readonly pets: PetStore;
  readonly keys: KeyVerifier;
}

function buildServices(config: Config): Services {
  const petsTable = required(config.petsTable, ENV.petsTable);
  const apiKeysTable = required(config.apiKeysTable, ENV.apiKeysTable);
  const client = createDocumentClient(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {});
  return {
    config,
    pets: new DynamoDbPetStore(client, petsTable, config.idempotencyTable),
    keys: new KeyVerifier(new DynamoDbApiKeyStore(client, apiKeysTable), { cacheMs: config.keyCacheMs }),
  };
}

let currentConfig: Config | undefined;
let current: Services | undefined;

export function config(): Config {
  if (!currentConfig) {
    currentConfig = readConfig();
    setLogLevel(currentConfig.logLevel);
  }
  return currentConfig;
}

export function services(): Services {
  current ??= buildServices(config());
  return current;
}

// Builds the client during Lambda's init phase (full CPU), not on the first request.
export function prepareServices(): void {
  if (process.env[ENV.petsTable] && process.env[ENV.apiKeysTable]) services();
}

/** Sets environment variables (undefined removes one) and rebuilds; assigning process.env alone changes nothing built. */
export function reconfigure(vars: Readonly<Record<string, string | undefined>> = {}): void {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  currentConfig = undefined;
  current = undefined;
  prepareServices();
}
