/**
 * The one DynamoDB call of each kind (StoreCall, infra/bench/scenarios.ts), the least any implementation of a request makes: the floors
 * make it on a table of the pets' own fields (floor- handler.ts), the baseline on the service's table (workers/bare-calls.ts).
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';

export interface StoreRequest {
  readonly body?: string | null;
  readonly pathParameters?: Record<string, string | undefined> | null;
  readonly queryStringParameters?: Record<string, string | undefined> | null;
}

export interface StoreResult {
  readonly statusCode: number;
  readonly body: string;
}

export interface Layout {
  readonly client: DynamoDBDocumentClient;
  readonly table: string | undefined;
  /** The (status, …) index a status page is a Query of. */
  readonly index: string;
  /** The fields a page's items are projected to. */
  readonly page?: { readonly ProjectionExpression: string; readonly ExpressionAttributeNames: Record<string, string> };
  /** Attributes stored beside a new pet's own. */
  readonly stored?: (pet: { readonly id: number; readonly status?: unknown }) => Record<string, unknown>;
}

export type Call = (layout: Layout) => (request: StoreRequest) => Promise<StoreResult>;

const PAGE = 20;
const json = (statusCode: number, body: unknown): StoreResult => ({ statusCode, body: JSON.stringify(body ?? null) });
const key = (request: StoreRequest) => ({ id: Number(request.pathParameters?.petId) });
const fields = (request: StoreRequest) => Object.entries(JSON.parse(request.body ?? '{}') as Record<string, unknown>);

export const get: Call =
  ({ client, table }) =>
  async (request) => {
    const { Item } = await client.send(new GetCommand({ TableName: table, Key: key(request), ConsistentRead: true }));
    return json(Item ? 200 : 404, Item);
  };

/** A page and the item that tells a next page exists. */
export const scan: Call =
  ({ client, table, page }) =>
  async () => {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: table, Limit: PAGE + 1, ...page }));
    return json(200, Items.slice(0, PAGE));
  };

export const query: Call =
  ({ client, table, index, page }) =>
  async (request) => {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: table,
        IndexName: index,
        KeyConditionExpression: '#status = :status',
        ...(page ? { ProjectionExpression: page.ProjectionExpression } : {}),
        ExpressionAttributeNames: { ...page?.ExpressionAttributeNames, '#status': 'status' },
        ExpressionAttributeValues: { ':status': request.queryStringParameters?.status },
        Limit: PAGE + 1,
      }),
    );
    return json(200, Items.slice(0, PAGE));
  };

/** A conditional put with a new id, and another on the rare collision, as the service does. */
export const put: Call =
  ({ client, table, stored }) =>
  async (request) => {
    for (let attempt = 1; ; attempt++) {
      const pet = { ...Object.fromEntries(fields(request)), id: Date.now() * 1000 + Math.floor(Math.random() * 1000) };
      try {
        const Item = { ...pet, ...stored?.(pet) };
        await client.send(new PutCommand({ TableName: table, Item, ConditionExpression: 'attribute_not_exists(id)' }));
        return json(201, pet);
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException' || attempt >= 5) throw error;
      }
    }
  };

/** The body's fields set on an existing pet. */
export const update: Call =
  ({ client, table }) =>
  async (request) => {
    const set = fields(request);
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: table,
        Key: key(request),
        UpdateExpression: `SET ${set.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(set.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(set.map(([, value], i) => [`:v${i}`, value])),
        ConditionExpression: 'attribute_exists(id)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return json(200, Attributes);
  };

const remove: Call =
  ({ client, table }) =>
  async (request) => {
    await client.send(new DeleteCommand({ TableName: table, Key: key(request) }));
    return { statusCode: 204, body: '' };
  };
export { remove as delete };
