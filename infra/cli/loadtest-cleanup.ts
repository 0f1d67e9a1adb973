/**
 * `npm run loadtest:cleanup -- RUN_ID [--delete] [--stage NAME | --table NAME [--endpoint URL] | --data-dir DIR]`:
 * removes the pets one load-test run created from a stage's Pets table, with the operator's AWS
 * credentials (the API has no delete). A Scan finds the names that start `loadtest-<runId>-`; only a
 * name that is exactly `loadtest-<runId>-<n>`, for a run id of the load test's format, is taken, and
 * each delete holds on condition that the name is still that. Without --delete it only prints.
 */
import { parseArgs } from 'node:util';
import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { PET_NAME_PREFIX, RUN_ID, runPetName } from './loadtest/scenario.ts';
import { openTable, TABLE_TARGET_OPTIONS } from './stage-tables.ts';
import { UsageError } from './usage-error.ts';

const USAGE = `Usage: npm run loadtest:cleanup -- RUN_ID [--delete]
       [--stage NAME [--region R] | --table NAME [--endpoint URL] [--region R] | --data-dir DIR]
Lists the pets run RUN_ID created (named ${PET_NAME_PREFIX}RUN_ID-<n>); --delete deletes them.`;

export async function main(argv: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { ...TABLE_TARGET_OPTIONS, delete: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    out(USAGE);
    return 0;
  }
  const [runId, ...rest] = positionals;
  if (runId === undefined || rest.length > 0) throw new UsageError('Give one RUN_ID, as the load test printed it.');
  if (!RUN_ID.test(runId)) throw new UsageError(`"${runId}" is not a load-test run id (8 hex digits, e.g. 1f0c9a7e).`);
  const ours = runPetName(runId);
  const target = await openTable('pets', values);
  const names = { '#name': 'name' };
  try {
    const pets: { id: number; name: string }[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await target.client.send(
        new ScanCommand({
          TableName: target.tableName,
          ProjectionExpression: 'id, #name',
          FilterExpression: 'begins_with(#name, :prefix)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':prefix': `${PET_NAME_PREFIX}${runId}-` },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? [])
        if (typeof item.name === 'string' && ours.test(item.name)) pets.push(item as (typeof pets)[number]);
      start = page.LastEvaluatedKey;
    } while (start);
    pets.sort((a, b) => a.id - b.id);
    out(`${pets.length} pets of run ${runId} in ${target.description}${values.delete ? '' : ' (dry run: nothing deleted; add --delete)'}:`);
    for (const pet of pets) out(`  ${pet.id}  ${pet.name}`);
    if (!values.delete) return 0;
    let deleted = 0;
    for (const pet of pets) {
      const condition = {
        ConditionExpression: '#name = :name',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':name': pet.name },
      };
      try {
        await target.client.send(new DeleteCommand({ TableName: target.tableName, Key: { id: pet.id }, ...condition }));
        deleted++;
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        out(`  ${pet.id} changed since the scan: left alone`);
      }
    }
    out(`Deleted ${deleted} pets of run ${runId}.`);
    return 0;
  } finally {
    await target.close();
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
      process.stderr.write(`${usage ? `${(error as Error).message}\n${USAGE}` : `loadtest:cleanup: ${(error as Error).message}`}\n`);
      process.exit(usage ? 2 : 1);
    },
  );
}
