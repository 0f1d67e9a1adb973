/**
 * Where an operator command reaches one of a stage's tables, with the operator's AWS credentials:
 *
 *   --stage NAME [--region R]                     the table named by stack PetStore-NAME's outputs
 *   --table NAME [--endpoint URL] [--region R]    any table, on AWS or a DynamoDB-compatible endpoint
 *   --data-dir DIR                                local mode: its running server's store, else its data folder
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { isStageName, OUTPUT_IDS, STAGE_NAMES, stackName } from '../cdk/stages.ts';
import { DEFAULT_DATA_DIR, IN_MEMORY, type LocalTableNames, openLocalStore, SERVER_INFO_FILE } from '../local/local-stack.ts';
import { UsageError } from './usage-error.ts';

export const TABLE_TARGET_OPTIONS = {
  stage: { type: 'string' },
  table: { type: 'string' },
  endpoint: { type: 'string' },
  region: { type: 'string' },
  'data-dir': { type: 'string' },
} as const;

type Flags = { readonly [K in keyof typeof TABLE_TARGET_OPTIONS]?: string | undefined };

type TableTarget = {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly description: string;
  close(): Promise<void>;
};

const OUTPUTS = { pets: OUTPUT_IDS.petsTableName, apiKeys: OUTPUT_IDS.apiKeysTableName } as const;

/** `table` of the target the flags name; `mayCreate`: an absent local data folder is made, not refused. */
export async function openTable(table: keyof typeof OUTPUTS, values: Flags, mayCreate = false): Promise<TableTarget> {
  if (values.region) process.env.AWS_REGION = values.region;
  if (values.stage) {
    if (!isStageName(values.stage)) throw new UsageError(`Unknown stage "${values.stage}": use ${STAGE_NAMES.join(' or ')}.`);
    const tableName = await stackOutput(stackName(values.stage), OUTPUTS[table]);
    return remote(tableName, undefined, `stage ${values.stage} (${tableName})`);
  }
  if (values.table) {
    return remote(values.table, values.endpoint, `table ${values.table}${values.endpoint ? ` at ${values.endpoint}` : ''}`);
  }
  if (values.endpoint) throw new UsageError('--endpoint needs --table NAME.');

  const dataDir = values['data-dir'] ?? (process.env.PETSTORE_DATA_DIR || DEFAULT_DATA_DIR);
  if (dataDir === IN_MEMORY) throw new UsageError('An in-memory local store lives only inside its server; give --table and --endpoint.');
  const running = await runningServer(dataDir);
  if (running) return remote(running.tableNames[table], running.dynamodbEndpoint, `the running local API (${running.url})`);
  // A mistyped folder must not show an empty, brand-new store as if it were the real one.
  if (!mayCreate && !(await stat(dataDir).catch(() => undefined))?.isDirectory()) {
    throw new UsageError(`No local data folder at ${dataDir}: run npm start first, or give the folder with --data-dir.`);
  }
  // No server is running: open the data folder directly (LevelDB allows one process at a time).
  const local = await openLocalStore({ dataDir });
  const client = createDocumentClient({ endpoint: local.endpoint });
  return {
    client,
    tableName: local.tableNames[table],
    description: `local data folder ${dataDir}`,
    close: async () => {
      client.destroy();
      await local.close();
    },
  };
}

function remote(tableName: string, endpoint: string | undefined, description: string): TableTarget {
  const client = createDocumentClient(endpoint ? { endpoint } : {});
  return { client, tableName, description, close: async () => client.destroy() };
}

/** The local API running on `dataDir` (the file it writes at start), if any. */
async function runningServer(dataDir: string) {
  let info: { pid: number; url: string; dynamodbEndpoint: string; tableNames: LocalTableNames };
  try {
    info = JSON.parse(await readFile(path.resolve(dataDir, SERVER_INFO_FILE), 'utf8')) as typeof info;
  } catch {
    return undefined;
  }
  try {
    process.kill(info.pid, 0);
    return info;
  } catch {
    return undefined; // a stale file from a server that was killed
  }
}

export async function stackOutput(stackName: string, outputKey: string): Promise<string> {
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const client = new CloudFormationClient({});
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const value = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === outputKey)?.OutputValue;
    if (!value) throw new Error(`Stack ${stackName} has no output ${outputKey}; is it deployed?`);
    return value;
  } finally {
    client.destroy();
  }
}
