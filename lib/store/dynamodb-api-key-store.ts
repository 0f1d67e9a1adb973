// Lookups are strongly consistent, so a key works the moment `keys create` returns; the verifier's cache bounds their cost.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, paginateScan, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { ApiKeyLookup } from '../auth/key-verifier.ts';
import { classifyStoreError } from './store-errors.ts';

export class DynamoDbApiKeyStore implements ApiKeyLookup {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.#client = client;
    this.#tableName = tableName;
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    try {
      const { Item } = await this.#client.send(new GetCommand({ TableName: this.#tableName, Key: { keyHash }, ConsistentRead: true }));
      return Item as ApiKeyRecord | undefined;
    } catch (error) {
      throw classifyStoreError(error, 'look up API key');
    }
  }

  async add(record: ApiKeyRecord): Promise<void> {
    await this.#client.send(
      new PutCommand({
        TableName: this.#tableName,
        Item: record,
        ConditionExpression: 'attribute_not_exists(keyHash)',
      }),
    );
  }

  // A Scan: one small item per issued key.
  async list(): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    for await (const page of paginateScan({ client: this.#client }, { TableName: this.#tableName })) {
      records.push(...((page.Items ?? []) as ApiKeyRecord[]));
    }
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async revoke(keyId: string, now: Date = new Date()): Promise<ApiKeyRecord | undefined> {
    const record = (await this.list()).find((r) => r.keyId === keyId);
    if (!record) return undefined;
    if (record.revokedAt) return record;
    try {
      const { Attributes } = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: { keyHash: record.keyHash },
          UpdateExpression: 'SET revokedAt = :now',
          ConditionExpression: 'attribute_exists(keyHash)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes as ApiKeyRecord;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}
