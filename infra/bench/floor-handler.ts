/**
 * The SDK-only floor: the least a function of this service can be. It creates the DynamoDB
 * document client at load and makes the DynamoDB calls the data model needs for the operation per
 * invocation: one GetItem, one conditional PutItem, or one Query per shard of the status index. Each export
 * is one operation; the benchmark bundles one of them at a time (infra/bench/bundles.ts), so a
 * floor holds only its own command.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { BY_STATUS_INDEX, STATUS_SHARD_ATTRIBUTE, statusShardKeys } from '#lib/store/tables.ts';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export interface FloorEvent {
  readonly body?: string | null;
  readonly pathParameters?: Record<string, string> | null;
  readonly queryStringParameters?: Record<string, string> | null;
}

export interface FloorResult {
  readonly statusCode: number;
  readonly body: string;
}

const table = (): string | undefined => process.env.PETS_TABLE_NAME;

/** GetItem of one pet. */
export const get = async (event: FloorEvent): Promise<FloorResult> => {
  const { Item } = await client.send(
    new GetCommand({ TableName: table(), Key: { id: Number(event.pathParameters?.petId) }, ConsistentRead: true }),
  );
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? null) };
};

/** One page of a status: a Query of a page plus one on each shard of the byStatus index, merged by id. */
export const list = async (event: FloorEvent): Promise<FloorResult> => {
  const answers = await Promise.all(
    statusShardKeys(event.queryStringParameters?.status ?? 'available').map((shard) =>
      client.send(
        new QueryCommand({
          TableName: table(),
          IndexName: BY_STATUS_INDEX,
          KeyConditionExpression: '#shard = :shard',
          ExpressionAttributeNames: { '#shard': STATUS_SHARD_ATTRIBUTE },
          ExpressionAttributeValues: { ':shard': shard },
          Limit: 21,
        }),
      ),
    ),
  );
  const items = answers.flatMap(({ Items = [] }) => Items).sort((a, b) => (a.id as number) - (b.id as number));
  return { statusCode: 200, body: JSON.stringify(items.slice(0, 20)) };
};

/** A conditional PutItem of the body with a new id. */
export const create = async (event: FloorEvent): Promise<FloorResult> => {
  const pet = { id: Date.now() * 1000 + Math.floor(Math.random() * 1000), ...(JSON.parse(event.body ?? '{}') as object) };
  await client.send(new PutCommand({ TableName: table(), Item: pet, ConditionExpression: 'attribute_not_exists(id)' }));
  return { statusCode: 201, body: JSON.stringify(pet) };
};
