/**
 * `npm run loadtest:cleanup -- RUN_ID [--delete] [--stage NAME | --table NAME [--endpoint URL] | --data-dir DIR]`: removes the pets one
 * load-test run created from a stage's Pets table, with the operator's AWS credentials (the API has no delete).
 */
import { DeleteCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { parseCommandLine, usageMistake } from './command-line.ts';
import { PET_NAME_PREFIX, RUN_ID, runPetName } from './loadtest/scenario.ts';
import { openTable, TABLE_TARGET_OPTIONS } from './stage-tables.ts';

const USAGE = `Usage: npm run loadtest:cleanup -- RUN_ID [--delete]
       [--stage NAME [--region R] | --table NAME [--endpoint URL] [--region R] | --data-dir DIR]
Lists the pets run RUN_ID created (named ${PET_NAME_PREFIX}RUN_ID-<n>); --delete deletes them.
`;

async function main(argv: string[], out = (line: string) => process.stdout.write(`${line}\n`)): Promise<void> {
  const options = { ...TABLE_TARGET_OPTIONS, delete: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
  const { values, positionals } = parseCommandLine(USAGE, { args: argv, allowPositionals: true, strict: true, options });
  const [runId = '', ...rest] = positionals;
  if (!RUN_ID.test(runId) || rest.length > 0)
    usageMistake(USAGE, `Give one load-test run id (8 hex digits, as the run printed it), not "${positionals.join(' ')}".`);
  const ours = runPetName(runId);
  const target = await openTable('pets', values);
  const names = { ExpressionAttributeNames: { '#name': 'name' } };
  try {
    const pets: { id: number; name: string }[] = [];
    const scan = {
      TableName: target.tableName,
      ProjectionExpression: 'id, #name',
      FilterExpression: 'begins_with(#name, :prefix)',
      ...names,
    };
    for await (const page of paginateScan(
      { client: target.client },
      { ...scan, ExpressionAttributeValues: { ':prefix': `${PET_NAME_PREFIX}${runId}-` } },
    )) {
      pets.push(...((page.Items ?? []).filter((item) => typeof item.name === 'string' && ours.test(item.name)) as typeof pets));
    }
    pets.sort((a, b) => a.id - b.id);
    out(`${pets.length} pets of run ${runId} in ${target.description}${values.delete ? '' : ' (dry run: nothing deleted; add --delete)'}:`);
    for (const pet of pets) out(`  ${pet.id}  ${pet.name}`);
    if (!values.delete) return;
    let deleted = 0;
    for (const { id, name } of pets) {
      // Only while the item is still that pet.
      const condition = { ConditionExpression: '#name = :name', ...names, ExpressionAttributeValues: { ':name': name } };
      try {
        await target.client.send(new DeleteCommand({ TableName: target.tableName, Key: { id }, ...condition }));
        deleted++;
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        out(`  ${id} changed since the scan: left alone`);
      }
    }
    out(`Deleted ${deleted} pets of run ${runId}.`);
  } finally {
    await target.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`loadtest:cleanup: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
