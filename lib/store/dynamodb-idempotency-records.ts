/**
 * IdempotencyRecordStore on the DynamoDB Idempotency table: each step of the protocol
 * (idempotency.ts) is one conditional write or one strongly consistent read.
 */
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

  async repoint(recordKey: string, fromPetId: number, toPetId: number): Promise<void> {
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: { recordKey },
          UpdateExpression: 'SET petId = :new',
          // Fails when the record is gone or a concurrent request repointed it first: either is fine.
          ConditionExpression: 'petId = :old',
          ExpressionAttributeValues: { ':new': toPetId, ':old': fromPetId },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw classifyStoreError(error, 'update idempotency record');
    }
  }
}
