/**
 * Everything local mode runs, in one call: the store (embedded dynalite, or an external endpoint),
 * its tables, an API key, and the local API serving a stage from its template, answered by the
 * handler sources (source mode) or by a cloud assembly's bundles (bundle mode).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { generateApiKey, hashApiKey, isWellFormedApiKey, newApiKeyRecord } from '#lib/auth/api-keys.ts';
import { ENV } from '#lib/config.ts';
import { reconfigure } from '#lib/services.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { DynamoDbApiKeyStore } from '#lib/store/dynamodb-api-key-store.ts';
import { apiKeysTable, idempotencyTable, petsTable } from '#lib/store/tables.ts';
import type { StageName } from '../cdk/stages.ts';
import type { CfnTemplate } from './gateway/template.ts';
import { startLocalApi } from './api-server.ts';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from './embedded-dynamodb.ts';
import { bundleStageApi, type SourceHandlers, sourceStageApi, type StageApi } from './stage-api.ts';
import { ensureTables, localTableNames } from './create-tables.ts';

export const IN_MEMORY = ':memory:';
export const DEFAULT_DATA_DIR = '.data';
/** Written while `npm start` runs, so the key CLI can reach the running store. */
export const SERVER_INFO_FILE = 'server.json';

export interface LocalStackOptions {
  readonly port?: number;
  /** A folder for the embedded store's files, or `:memory:`. */
  readonly dataDir?: string;
  /** Registered at start-up, so scripts and load tests can use a key they chose. */
  readonly apiKey?: string;
  /** An external DynamoDB-compatible endpoint instead of the embedded server. */
  readonly dynamodbEndpoint?: string;
  /** Prefix of the physical table names (tests sharing one external endpoint use one each). */
  readonly tablePrefix?: string;
  /** The stage whose template is served (default staging). */
  readonly stage?: StageName;
  /** Bundle mode: a cloud assembly folder (`cdk synth` output) whose bundles answer. */
  readonly cloudAssembly?: string;
  /** The stage's throttling: default off in source mode, on in bundle mode. */
  readonly throttling?: boolean;
  readonly edgeClock?: () => number; // Source mode: the automatic blocks' clock (a test may run it faster).
  /** Source mode: the stage's template, if already synthesized. */
  readonly template?: CfnTemplate;
  /** Source mode: handlers to use instead of importing `functions/<function id>.ts`. */
  readonly handlers?: SourceHandlers;
  /** Bundle mode: where the functions' output goes (default stdout). */
  readonly onFunctionOutput?: (chunk: string) => void;
}

export interface LocalStack {
  readonly url: string;
  readonly dynamodbEndpoint: string;
  readonly tableNames: LocalTableNames;
  /** A development key issued by this start (first start on an empty store), else undefined. */
  readonly issuedApiKey: string | undefined;
  /** The stage served and how: its handler sources, or a cloud assembly's bundles. */
  readonly stage: string;
  readonly mode: 'source' | 'bundle';
  close(): Promise<void>;
}

export interface LocalTableNames {
  readonly pets: string;
  readonly apiKeys: string;
  readonly idempotency: string;
}

export interface LocalStore {
  readonly endpoint: string;
  readonly tableNames: LocalTableNames;
  close(): Promise<void>;
}

/** The store of local mode with its tables created: embedded dynalite, or an external endpoint. */
export async function openLocalStore(
  options: Pick<LocalStackOptions, 'dataDir' | 'dynamodbEndpoint' | 'tablePrefix'> = {},
): Promise<LocalStore> {
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  let embedded: EmbeddedDynamoDb | undefined;
  if (!options.dynamodbEndpoint) {
    const storeDir = dataDir === IN_MEMORY ? undefined : path.resolve(dataDir, 'dynamodb');
    if (storeDir) await mkdir(storeDir, { recursive: true });
    embedded = await startEmbeddedDynamoDb(storeDir ? { path: storeDir } : {});
  }
  const endpoint = options.dynamodbEndpoint ?? (embedded as EmbeddedDynamoDb).endpoint;
  const names = localTableNames(options.tablePrefix);
  const admin = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await ensureTables(admin, names);
  } catch (error) {
    await embedded?.close();
    throw error;
  } finally {
    admin.destroy();
  }
  return {
    endpoint,
    tableNames: {
      pets: names[petsTable.logicalName] as string,
      apiKeys: names[apiKeysTable.logicalName] as string,
      idempotency: names[idempotencyTable.logicalName] as string,
    },
    close: async () => embedded?.close(),
  };
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  if (options.apiKey !== undefined && !isWellFormedApiKey(options.apiKey)) {
    throw new Error(
      'PETSTORE_API_KEY must be "psk_" followed by 32 base64url characters, e.g. the output of: ' +
        `node -e "console.log('psk_' + require('node:crypto').randomBytes(24).toString('base64url'))"`,
    );
  }
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const infoFile = dataDir === IN_MEMORY || options.dynamodbEndpoint ? undefined : path.resolve(dataDir, SERVER_INFO_FILE);
  // The embedded store's files take one server: a second one would crash on them ("Database is closed").
  const other =
    infoFile &&
    (await readFile(infoFile, 'utf8').then(
      (text) => JSON.parse(text) as { pid: number; url: string },
      () => undefined,
    ));
  if (other && isRunning(other.pid))
    throw new Error(
      `${dataDir} is in use by the local API at ${other.url} (pid ${other.pid}): stop it, or give this one another data folder.`,
    );
  const store = await openLocalStore(options);
  const { endpoint, tableNames } = store;
  let api: Awaited<ReturnType<typeof startLocalApi>> | undefined;
  let stageApi: StageApi | undefined;
  try {
    // The handlers read their configuration from the environment, as on Lambda.
    reconfigure({
      [ENV.dynamodbEndpoint]: endpoint,
      [ENV.petsTable]: tableNames.pets,
      [ENV.apiKeysTable]: tableNames.apiKeys,
      [ENV.idempotencyTable]: tableNames.idempotency,
    });

    const issuedApiKey = await provisionKey(endpoint, tableNames.apiKeys, options.apiKey);
    stageApi = options.cloudAssembly
      ? bundleStageApi({
          cloudAssembly: options.cloudAssembly,
          ...(options.stage ? { stage: options.stage } : {}),
          dynamodbEndpoint: endpoint,
          tableNames: localTableNames(options.tablePrefix),
          ...(options.throttling === undefined ? {} : { throttling: options.throttling }),
          ...(options.onFunctionOutput ? { onFunctionOutput: options.onFunctionOutput } : {}),
        })
      : await sourceStageApi({
          ...(options.stage ? { stage: options.stage } : {}),
          ...(options.template ? { template: options.template } : {}),
          ...(options.handlers ? { handlers: options.handlers } : {}),
          ...(options.throttling === undefined ? {} : { throttling: options.throttling }),
          ...(options.edgeClock ? { edgeClock: options.edgeClock } : {}),
        });
    api = await startLocalApi({ api: stageApi.api, port: options.port ?? 0 });
    if (infoFile) {
      await writeFile(infoFile, `${JSON.stringify({ pid: process.pid, url: api.url, dynamodbEndpoint: endpoint, tableNames }, null, 2)}\n`);
    }
    const running = api;
    const served = stageApi;
    let closing: Promise<void> | undefined;
    return {
      url: running.url,
      dynamodbEndpoint: endpoint,
      tableNames,
      issuedApiKey,
      stage: served.api.stageName,
      mode: options.cloudAssembly ? 'bundle' : 'source',
      close: () =>
        (closing ??= (async () => {
          await running.close();
          await served.close();
          if (infoFile) await rm(infoFile, { force: true });
          await store.close();
        })()),
    };
  } catch (error) {
    await api?.close();
    await stageApi?.close();
    await store.close();
    throw error;
  }
}

function isRunning(pid: number): boolean {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
}

/** Registers the chosen key, or issues a development key when the store has none yet. */
async function provisionKey(endpoint: string, tableName: string, apiKey: string | undefined): Promise<string | undefined> {
  const client = createDocumentClient({ endpoint });
  const keys = new DynamoDbApiKeyStore(client, tableName);
  try {
    if (apiKey !== undefined) {
      if (!(await keys.findByHash(hashApiKey(apiKey)))) await keys.add(newApiKeyRecord(apiKey, 'PETSTORE_API_KEY'));
      return undefined;
    }
    if ((await keys.list()).length > 0) return undefined;
    const issued = generateApiKey();
    await keys.add(newApiKeyRecord(issued, 'development'));
    return issued;
  } finally {
    client.destroy();
  }
}
