/**
 * The handlers' dependencies, built from one Config (config.ts) and reused across invocations: the
 * stores on one DynamoDB client, the key verifier and its cache time, the log level. On Lambda they
 * are built once, when the function module loads; local mode and the tests, which change the
 * environment in one process, rebuild them with reconfigure().
 */
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

/** This instance's configuration, read from the environment on first use; it sets the log level. */
export function config(): Config {
  if (!currentConfig) {
    currentConfig = readConfig();
    setLogLevel(currentConfig.logLevel);
  }
  return currentConfig;
}

/** This instance's services, built from its configuration on first use. */
export function services(): Services {
  current ??= buildServices(config());
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

/**
 * Sets environment variables (undefined removes one) and rebuilds the services from the result, at
 * once if it names the tables, else on first use: how local mode and the tests point this process
 * at another store, table, log level or origins. Assigning process.env alone changes nothing built.
 */
export function reconfigure(vars: Readonly<Record<string, string | undefined>> = {}): void {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  currentConfig = undefined;
  current = undefined;
  prepareServices();
}
