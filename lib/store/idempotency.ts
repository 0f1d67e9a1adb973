/**
 * Idempotent creates without transactions. The first request with a key reserves a record
 * {key → pet id, body hash}; every request with that key then does the same conditional put of
 * the pet under the reserved id. Exactly one put can succeed, so the pet is created once, whoever
 * gets there first, whether the earlier request finished, is still running or died half-way; the
 * others read the pet back. A different body under the same key is refused.
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NewPet, Pet } from '../domain/pet.ts';
import { classifyStoreError, IdempotencyKeyReusedError } from './errors.ts';
import { generatePetId } from './ids.ts';
import type { CreatedPet } from './pet-store.ts';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const MAX_ATTEMPTS = 4;

interface IdempotencyRecord {
  readonly recordKey: string;
  readonly petId: number;
  readonly bodyHash: string;
  /** Epoch seconds: DynamoDB TTL deletes the record some time after; reads ignore it from then. */
  readonly expiresAt: number;
}

interface PetWrites {
  /** Conditional put of the pet under `id`: false when a pet with that id exists. */
  put(id: number): Promise<boolean>;
  get(id: number): Promise<Pet | undefined>;
}

export class IdempotencyRecords {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #now: () => number;

  constructor(client: DynamoDBDocumentClient, tableName: string, now: () => number = Date.now) {
    this.#client = client;
    this.#tableName = tableName;
    this.#now = now;
  }

  async run(recordKey: string, newPet: NewPet, pets: PetWrites): Promise<CreatedPet> {
    const bodyHash = hashNewPet(newPet);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const record = await this.#reserve(recordKey, bodyHash);
      if (record.bodyHash !== bodyHash) throw new IdempotencyKeyReusedError();
      // Whoever reserved the key, the request whose put succeeds is the one that created the pet.
      if (await pets.put(record.petId)) return { pet: { id: record.petId, ...newPet }, replayed: false };
      const existing = await pets.get(record.petId);
      if (existing && hashNewPet(existing) === bodyHash) return { pet: existing, replayed: true };
      // The reserved id went to an unrelated pet (two ids drawn alike in one millisecond):
      // point the record at a fresh id, unless a concurrent request already did.
      await this.#repoint(record, generatePetId());
    }
    throw new Error(`Idempotent create did not settle after ${MAX_ATTEMPTS} attempts`);
  }

  /** The key's record: a new one reserved by this call, or the one already there. */
  async #reserve(recordKey: string, bodyHash: string): Promise<IdempotencyRecord> {
    const nowSeconds = Math.floor(this.#now() / 1000);
    const record: IdempotencyRecord = { recordKey, petId: generatePetId(), bodyHash, expiresAt: nowSeconds + IDEMPOTENCY_TTL_SECONDS };
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
      return record;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw classifyStoreError(error, 'reserve idempotency key');
    }
    try {
      const { Item } = await this.#client.send(new GetCommand({ TableName: this.#tableName, Key: { recordKey }, ConsistentRead: true }));
      if (Item) return Item as IdempotencyRecord;
    } catch (error) {
      throw classifyStoreError(error, 'read idempotency record');
    }
    // Deleted between our put and our read: reserve again.
    return this.#reserve(recordKey, bodyHash);
  }

  async #repoint(record: IdempotencyRecord, petId: number): Promise<void> {
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: { recordKey: record.recordKey },
          UpdateExpression: 'SET petId = :new',
          ConditionExpression: 'petId = :old',
          ExpressionAttributeValues: { ':new': petId, ':old': record.petId },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw classifyStoreError(error, 'update idempotency record');
    }
  }
}

/** The record key: the caller's key id and its Idempotency-Key, so callers never share records. */
export function idempotencyRecordKey(callerId: string, idempotencyKey: string): string {
  return createHash('sha256').update(`${callerId}\n${idempotencyKey}`).digest('hex');
}

/** Hash of the pet's fields in a fixed order: bodies that parse to the same pet hash alike. */
export function hashNewPet(pet: NewPet): string {
  return createHash('sha256').update(JSON.stringify([pet.name, pet.categoryId, pet.status ?? null])).digest('hex');
}
