/**
 * `npm run keys -- <command>`: issue, list and revoke API keys.
 *
 *   create --label NAME [--expires-in 30d]   prints the new key once; only its hash is stored
 *   list                                     id, label, created, expires, revoked
 *   revoke KEY_ID                            the key stops working within a minute
 *
 * Target (default: local mode, the running `npm start` or its data folder):
 *   --stage NAME [--region R]   a deployed stage: the ApiKeys table from stack PetStore-NAME's outputs
 *   --table NAME [--endpoint URL] [--region R]   any table, on AWS or a DynamoDB-compatible endpoint
 *   --data-dir DIR              local mode's data folder (default: PETSTORE_DATA_DIR or .data)
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type ApiKeyRecord,
  checkLabel,
  escapeControlCharacters,
  generateApiKey,
  newApiKeyRecord,
  parseDuration,
} from '#lib/auth/api-keys.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { DynamoDbApiKeyStore } from '#lib/store/dynamodb-api-key-store.ts';
import { isStageName, OUTPUT_IDS, STAGE_NAMES, stackName } from '../cdk/stages.ts';
import { DEFAULT_DATA_DIR, IN_MEMORY, SERVER_INFO_FILE, openLocalStore } from '../local/local-stack.ts';
import { UsageError } from './usage-error.ts';

const USAGE = `Usage: npm run keys -- <create --label NAME [--expires-in 30d] | list | revoke KEY_ID>
       [--stage NAME [--region R] | --table NAME [--endpoint URL] [--region R] | --data-dir DIR]`;

interface Target {
  readonly store: DynamoDbApiKeyStore;
  readonly description: string;
  close(): Promise<void>;
}

export async function main(argv: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      label: { type: 'string' },
      'expires-in': { type: 'string' },
      stage: { type: 'string' },
      table: { type: 'string' },
      endpoint: { type: 'string' },
      region: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (command === undefined) throw new UsageError('Give a command: create, list or revoke.');
  if (!['create', 'list', 'revoke'].includes(command)) throw new UsageError(`Unknown command "${command}".`);
  if (command === 'create' && !values.label?.trim()) throw new UsageError('create needs --label NAME, to tell keys apart later.');
  const label = command === 'create' ? labelOption(values.label as string) : '';
  if (command === 'revoke' && rest.length !== 1) throw new UsageError('revoke needs exactly one KEY_ID (see: npm run keys -- list).');
  const expiresInMs = values['expires-in'] === undefined ? undefined : durationOption(values['expires-in']);

  const target = await openTarget(command, values);
  try {
    if (command === 'create') {
      const key = generateApiKey();
      const now = new Date();
      const record = newApiKeyRecord(key, label, {
        now,
        ...(expiresInMs ? { expiresAt: new Date(now.getTime() + expiresInMs) } : {}),
      });
      await target.store.add(record);
      out(`Created ${record.keyId} (${record.label}) in ${target.description}${record.expiresAt ? `, expires ${record.expiresAt}` : ''}.`);
      out('The key is shown once and cannot be recovered; store it now:');
      out(key);
    } else if (command === 'list') {
      out(formatTable(await target.store.list()));
    } else {
      const keyId = rest[0] as string;
      const record = await target.store.revoke(keyId);
      if (!record) {
        out(`No key with id ${keyId} in ${target.description}.`);
        return 1;
      }
      out(`Revoked ${record.keyId} (${record.label}) at ${record.revokedAt}; it stops working within 60 s.`);
    }
    return 0;
  } finally {
    await target.close();
  }
}

function durationOption(text: string): number {
  try {
    return parseDuration(text);
  } catch (error) {
    throw new UsageError(`--expires-in: ${(error as Error).message}.`);
  }
}

function labelOption(text: string): string {
  try {
    return checkLabel(text);
  } catch (error) {
    throw new UsageError(`--label: ${(error as Error).message}.`);
  }
}

async function openTarget(
  command: string,
  values: { stage?: string; table?: string; endpoint?: string; region?: string; 'data-dir'?: string },
): Promise<Target> {
  if (values.region) process.env.AWS_REGION = values.region;
  if (values.stage) {
    if (!isStageName(values.stage)) throw new UsageError(`Unknown stage "${values.stage}": use ${STAGE_NAMES.join(' or ')}.`);
    const tableName = await stackOutput(stackName(values.stage), OUTPUT_IDS.apiKeysTableName);
    return remote(tableName, undefined, `stage ${values.stage} (${tableName})`);
  }
  if (values.table) {
    return remote(values.table, values.endpoint, `table ${values.table}${values.endpoint ? ` at ${values.endpoint}` : ''}`);
  }
  if (values.endpoint) throw new UsageError('--endpoint needs --table NAME.');

  const dataDir = values['data-dir'] ?? (process.env.PETSTORE_DATA_DIR || DEFAULT_DATA_DIR);
  if (dataDir === IN_MEMORY) throw new UsageError('An in-memory local store lives only inside its server; use PETSTORE_API_KEY instead.');
  const running = await runningServer(dataDir);
  if (running) return remote(running.tableNames.apiKeys, running.dynamodbEndpoint, `the running local API (${running.url})`);
  // A mistyped folder must not show an empty, brand-new store as if it were the real one.
  if (command !== 'create' && !(await isDirectory(dataDir))) {
    throw new UsageError(`No local data folder at ${dataDir}: run npm start first, or give the folder with --data-dir.`);
  }
  // No server is running: open the data folder directly (LevelDB allows one process at a time).
  const local = await openLocalStore({ dataDir });
  const client = createDocumentClient({ endpoint: local.endpoint });
  return {
    store: new DynamoDbApiKeyStore(client, local.tableNames.apiKeys),
    description: `local data folder ${dataDir}`,
    close: async () => {
      client.destroy();
      await local.close();
    },
  };
}

function remote(tableName: string, endpoint: string | undefined, description: string): Target {
  const client = createDocumentClient(endpoint ? { endpoint } : {});
  return { store: new DynamoDbApiKeyStore(client, tableName), description, close: async () => client.destroy() };
}

interface ServerInfo {
  pid: number;
  url: string;
  dynamodbEndpoint: string;
  tableNames: { pets: string; apiKeys: string };
}

async function isDirectory(dir: string): Promise<boolean> {
  return (await stat(dir).catch(() => undefined))?.isDirectory() ?? false;
}

async function runningServer(dataDir: string): Promise<ServerInfo | undefined> {
  let info: ServerInfo;
  try {
    info = JSON.parse(await readFile(path.resolve(dataDir, SERVER_INFO_FILE), 'utf8')) as ServerInfo;
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

async function stackOutput(stackName: string, outputKey: string): Promise<string> {
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

function formatTable(records: ApiKeyRecord[]): string {
  if (records.length === 0) return 'No keys.';
  const rows = [
    ['ID', 'LABEL', 'CREATED', 'EXPIRES', 'STATE'],
    ...records.map((r) => [
      r.keyId,
      // A label written before labels were checked (or by another tool) must not break the table.
      escapeControlCharacters(r.label),
      r.createdAt,
      r.expiresAt ?? '-',
      r.revokedAt ? `revoked ${r.revokedAt}` : r.expiresAt && Date.parse(r.expiresAt) <= Date.now() ? 'expired' : 'active',
    ]),
  ];
  const widths = rows.reduce<number[]>((max, row) => row.map((cell, i) => Math.max(max[i] ?? 0, cell.length)), []);
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof UsageError ? `${error.message}\n${USAGE}` : `keys: ${(error as Error).message}`}\n`);
      process.exit(error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1);
    },
  );
}
