/**
 * The SDK-only floor: the least a function of this service can be. It creates the DynamoDB
 * document client at load and makes the DynamoDB calls the data model needs for the operation per
 * invocation: one GetItem, one conditional PutItem, or one Query with Limit 21 on a (status, id)
 * index (its own table, infra/bench/floor-table.ts). Each export
 * is one operation; the benchmark bundles one of them at a time (infra/bench/bundles.ts), so a
 * floor holds only its own command.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { FLOOR_STATUS_INDEX } from './floor-table.ts';

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

/** One page of a status: one Query with Limit 21 on the (status, id) index, the page and the item that tells a next page exists. */
export const list = async (event: FloorEvent): Promise<FloorResult> => {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: table(),
      IndexName: FLOOR_STATUS_INDEX,
      KeyConditionExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': event.queryStringParameters?.status ?? 'available' },
      Limit: 21,
    }),
  );
  return { statusCode: 200, body: JSON.stringify(Items.slice(0, 20)) };
};

/** A conditional PutItem of the body with a new id. */
export const create = async (event: FloorEvent): Promise<FloorResult> => {
  const pet = { id: Date.now() * 1000 + Math.floor(Math.random() * 1000), ...(JSON.parse(event.body ?? '{}') as object) };
  await client.send(new PutCommand({ TableName: table(), Item: pet, ConditionExpression: 'attribute_not_exists(id)' }));
  return { statusCode: 201, body: JSON.stringify(pet) };
};
