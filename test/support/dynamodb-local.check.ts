/**
 * Self-check for dynamodb-local.ts (not part of the vitest suite):
 *
 *   ./node_modules/.bin/node test/support/dynamodb-local.check.ts
 *
 * Starts DynamoDB Local, proves it is reachable on 127.0.0.1 and not on the machine's other
 * addresses, creates a table with a GSI, does PutItem/GetItem/Query, stops it, prints timings.
 */

import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { startDynamoDbLocal } from './dynamodb-local.ts';

const timings: [string, number][] = [];
async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    timings.push([label, performance.now() - started]);
  }
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`check failed: ${message}`);
}

/** Resolves true if a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

const ddb = await timed('start (spawn until ListTables answers)', () => startDynamoDbLocal());
console.log(`DynamoDB Local at ${ddb.endpoint}`);
try {
  const port = Number(new URL(ddb.endpoint).port);
  check(new URL(ddb.endpoint).hostname === '127.0.0.1', 'endpoint host is 127.0.0.1');
  check(await accepts('127.0.0.1', port), 'accepts connections on 127.0.0.1');
  const otherAddresses = Object.values(networkInterfaces())
    .flat()
    .flatMap((info) => (info !== undefined && !info.internal ? [info.address] : []));
  for (const address of otherAddresses) {
    check(!(await accepts(address, port)), `refuses connections on ${address}`);
  }
  console.log(`refused on non-loopback addresses: ${otherAddresses.join(', ') || '(none found)'}`);
  try {
    const listening = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
    console.log(`ss -ltn for port ${port}:\n  ${listening.split('\n').join('\n  ')}`);
  } catch {
    console.log('(ss not available; skipped)');
  }

  const client = new DynamoDBClient({
    endpoint: ddb.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const TableName = 'CheckPets';

  await timed('CreateTable (with GSI)', () =>
    client.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'id', AttributeType: 'N' },
          { AttributeName: 'status', AttributeType: 'S' },
        ],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byStatus',
            KeySchema: [
              { AttributeName: 'status', KeyType: 'HASH' },
              { AttributeName: 'id', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    ),
  );

  await timed('PutItem', () =>
    client.send(
      new PutItemCommand({
        TableName,
        Item: { id: { N: '1' }, name: { S: 'Rex' }, status: { S: 'available' } },
      }),
    ),
  );

  const got = await timed('GetItem', () => client.send(new GetItemCommand({ TableName, Key: { id: { N: '1' } }, ConsistentRead: true })));
  check(got.Item?.name?.S === 'Rex', 'GetItem returns the item');

  const queried = await timed('Query (GSI)', () =>
    client.send(
      new QueryCommand({
        TableName,
        IndexName: 'byStatus',
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': { S: 'available' } },
      }),
    ),
  );
  check(queried.Count === 1 && queried.Items?.[0]?.id?.N === '1', 'Query on the GSI finds the item');
  client.destroy();
} finally {
  await timed('stop', () => ddb.stop());
}

for (const [label, ms] of timings) console.log(`${label.padEnd(42)} ${ms.toFixed(0).padStart(6)} ms`);
console.log('OK');
