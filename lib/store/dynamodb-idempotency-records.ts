// Each step of the protocol (idempotency.ts) is one conditional write or one strongly consistent read.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { classifyStoreError } from './store-errors.ts';
import type { IdempotencyRecord, IdempotencyRecordStore } from './idempotency.ts';

export class DynamoDbIdempotencyRecords implements IdempotencyRecordStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.#client = client;
    this.#tableName = tableName;
  }

  async reserve(record: IdempotencyRecord, nowSeconds: number): Promise<boolean> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: record,
          // An expired record that TTL has not deleted yet counts as absent.
          ConditionExpression: 'attribute_not_exists(recordKey) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': nowSeconds },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw classifyStoreError(error, 'reserve idempotency key');
    }
  }

  async read(recordKey: string): Promise<IdempotencyRecord | undefined> {
    try {
      // Strongly consistent: the record whose existence just failed our reserve is visible.
      const { Item } = await this.#client.send(new GetCommand({ TableName: this.#tableName, Key: { recordKey }, ConsistentRead: true }));
      return Item as IdempotencyRecord | undefined;
    } catch (error) {
      throw classifyStoreError(error, 'read idempotency record');
    }
  }

  repoint(recordKey: string, fromPetId: number, toPetId: number): Promise<void> {
    // Fails when the record is gone, marked, or a concurrent request repointed it first: each is fine.
    return this.#update(recordKey, 'SET petId = :to', 'petId = :from AND attribute_not_exists(created)', {
      ':to': toPetId,
      ':from': fromPetId,
    });
  }

  markCreated(recordKey: string, petId: number): Promise<void> {
    // Fails when the record is gone or was reserved afresh after expiry (another id): that one is left alone.
    return this.#update(recordKey, 'SET created = :true', 'petId = :id', { ':true': true, ':id': petId });
  }

  // A failed condition is the caller's "leave it as it is".
  async #update(recordKey: string, set: string, condition: string, values: Record<string, unknown>): Promise<void> {
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: { recordKey },
          UpdateExpression: set,
          ConditionExpression: condition,
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw classifyStoreError(error, 'update idempotency record');
    }
  }
}
