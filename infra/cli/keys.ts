/**
 * `npm run keys -- <command>`: issue, list and revoke API keys.
 *
 *   create --label NAME [--expires-in 30d]   prints the new key once; only its hash is stored
 *   list                                     id, label, created, expires, revoked
 *   revoke KEY_ID                            the key stops working within a minute
 *
 * Target: the ApiKeys table of a stage, a named table, or local mode (default; stage-tables.ts).
 */
import { parseArgs } from 'node:util';
import {
  type ApiKeyRecord,
  checkLabel,
  escapeControlCharacters,
  generateApiKey,
  newApiKeyRecord,
  parseDuration,
} from '#lib/auth/api-keys.ts';
import { DynamoDbApiKeyStore } from '#lib/store/dynamodb-api-key-store.ts';
import { table } from './command-line.ts';
import { openTable, TABLE_TARGET_OPTIONS } from './stage-tables.ts';
import { UsageError } from './usage-error.ts';

const USAGE = `Usage: npm run keys -- <create --label NAME [--expires-in 30d] | list | revoke KEY_ID>
       [--stage NAME [--region R] | --table NAME [--endpoint URL] [--region R] | --data-dir DIR]`;

export async function main(argv: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      label: { type: 'string' },
      'expires-in': { type: 'string' },
      ...TABLE_TARGET_OPTIONS,
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

  const target = await openTable('apiKeys', values, command === 'create');
  const store = new DynamoDbApiKeyStore(target.client, target.tableName);
  try {
    if (command === 'create') {
      const key = generateApiKey();
      const now = new Date();
      const record = newApiKeyRecord(key, label, {
        now,
        ...(expiresInMs ? { expiresAt: new Date(now.getTime() + expiresInMs) } : {}),
      });
      await store.add(record);
      out(`Created ${record.keyId} (${record.label}) in ${target.description}${record.expiresAt ? `, expires ${record.expiresAt}` : ''}.`);
      out('The key is shown once and cannot be recovered; store it now:');
      out(key);
    } else if (command === 'list') {
      out(formatTable(await store.list()));
    } else {
      const keyId = rest[0] as string;
      const record = await store.revoke(keyId);
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
  return table(rows);
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
