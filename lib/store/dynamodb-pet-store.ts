// Never a filtered Scan: a page costs O(limit) whatever the table size (docs/data-model.md#listing).
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { NewPet, Pet, PetStatus } from '../domain/pet.ts';
import { DynamoDbIdempotencyRecords } from './dynamodb-idempotency-records.ts';
import { classifyStoreError } from './store-errors.ts';
import { generatePetId } from './ids.ts';
import { IdempotencyProtocol, type StoredPet } from './idempotency.ts';
import type { CreatedPet, CreateOptions, ListPetsRequest, PetPage, PetStore, ReadOptions } from './pet-store.ts';
import { BY_STATUS_INDEX, STATUS_ORDER_ATTRIBUTE, statusOrder } from './tables.ts';

/** A collision needs two creates in the same millisecond drawing the same 12 random bits. */
const MAX_ID_ATTEMPTS = 5;

// docs/data-model.md#what-every-write-keeps
export const WRITE_TOKEN = 'writeToken';
export const RECORD_KEY = 'recordKey';

const FIELD_NAMES = { '#name': 'name', '#status': 'status' };
/** A page names the Pet fields, leaving the store's own attributes out (docs/data-model.md#listing); a get reads the whole item. */
export const PAGE_FIELDS = { ProjectionExpression: 'id, #name, categoryId, #status', ExpressionAttributeNames: FIELD_NAMES };

export class DynamoDbPetStore implements PetStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #idempotency: IdempotencyProtocol | undefined;

  constructor(client: DynamoDBDocumentClient, tableName: string, idempotencyTableName?: string) {
    this.#client = client;
    this.#tableName = tableName;
    this.#idempotency = idempotencyTableName
      ? new IdempotencyProtocol(new DynamoDbIdempotencyRecords(client, idempotencyTableName), {
          put: (pet, recordKey) => this.#put(pet, recordKey),
          get: async (id) => {
            const item = await this.#item(id, 'create pet');
            return item && toStoredPet(item);
          },
        })
      : undefined;
  }

  async create(newPet: NewPet, options: CreateOptions = {}): Promise<CreatedPet> {
    if (options.idempotencyKey === undefined) return { pet: await this.#createWithFreshId(newPet), replayed: false };
    if (!this.#idempotency) throw new Error('Idempotent create needs the idempotency table (IDEMPOTENCY_TABLE_NAME)');
    return this.#idempotency.run(options.idempotencyKey, newPet);
  }

  async #createWithFreshId(newPet: NewPet): Promise<Pet> {
    for (let attempt = 1; ; attempt++) {
      const pet: Pet = { id: generatePetId(), ...newPet };
      if ((await this.#put(pet)) === 'stored') return toPet(pet);
      if (attempt >= MAX_ID_ATTEMPTS) throw new Error(`No free pet id after ${MAX_ID_ATTEMPTS} attempts`);
    }
  }

  // As PetWrites.put. A retried put whose answer was lost finds its own write token (docs/data-model.md#pet-ids).
  async #put(pet: Pet, recordKey?: string): Promise<'stored' | StoredPet | undefined> {
    const writeToken = randomUUID();
    const item: Record<string, unknown> = { ...pet, [WRITE_TOKEN]: writeToken };
    // Only pets with a status get a position in the index: it stays sparse.
    if (pet.status !== undefined) item[STATUS_ORDER_ATTRIBUTE] = statusOrder(pet.id);
    if (recordKey !== undefined) item[RECORD_KEY] = recordKey;
    try {
      await this.#client.send(new PutCommand({ TableName: this.#tableName, Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
      return 'stored';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw classifyStoreError(error, 'create pet');
      const stored = await this.#item(pet.id, 'create pet');
      if (stored?.[WRITE_TOKEN] === writeToken) return 'stored';
      return stored && toStoredPet(stored);
    }
  }

  // Strongly consistent: a pet can be read back the moment its create has answered.
  async #item(id: number, action: string, signal?: AbortSignal): Promise<Record<string, unknown> | undefined> {
    try {
      const { Item } = await this.#client.send(new GetCommand({ TableName: this.#tableName, Key: { id }, ConsistentRead: true }), {
        abortSignal: signal,
      });
      return Item;
    } catch (error) {
      throw classifyStoreError(error, action);
    }
  }

  async get(id: number, { signal }: ReadOptions = {}): Promise<Pet | undefined> {
    const item = await this.#item(id, 'get pet', signal);
    return item && toPet(item);
  }

  async list({ limit, status, afterId }: ListPetsRequest, { signal }: ReadOptions = {}): Promise<PetPage> {
    try {
      return status === undefined ? await this.#scan(limit, afterId, signal) : await this.#query(status, limit, afterId, signal);
    } catch (error) {
      throw classifyStoreError(error, 'list pets');
    }
  }

  async #scan(limit: number, afterId: number | undefined, signal: AbortSignal | undefined): Promise<PetPage> {
    // One item more than the page, so a page ending exactly at the end announces no empty next page.
    const { Items = [], LastEvaluatedKey } = await this.#client.send(
      new ScanCommand({
        TableName: this.#tableName,
        Limit: limit + 1,
        ...PAGE_FIELDS,
        ...(afterId === undefined ? {} : { ExclusiveStartKey: { id: afterId } }),
      }),
      { abortSignal: signal },
    );
    return page(Items, limit, LastEvaluatedKey !== undefined);
  }

  async #query(status: PetStatus, limit: number, afterId: number | undefined, signal: AbortSignal | undefined): Promise<PetPage> {
    const { Items = [], LastEvaluatedKey } = await this.#client.send(
      new QueryCommand({
        TableName: this.#tableName,
        IndexName: BY_STATUS_INDEX,
        Limit: limit + 1,
        KeyConditionExpression: afterId === undefined ? '#status = :status' : '#status = :status AND #order > :after',
        ProjectionExpression: PAGE_FIELDS.ProjectionExpression,
        ExpressionAttributeNames: { ...FIELD_NAMES, ...(afterId === undefined ? {} : { '#order': STATUS_ORDER_ATTRIBUTE }) },
        ExpressionAttributeValues: { ':status': status, ...(afterId === undefined ? {} : { ':after': statusOrder(afterId) }) },
      }),
      { abortSignal: signal },
    );
    return page(Items, limit, LastEvaluatedKey !== undefined);
  }
}

// A next page when the extra item came back or DynamoDB stopped early (1 MB).
function page(items: Record<string, unknown>[], limit: number, stoppedEarly: boolean): PetPage {
  const pets = items.slice(0, limit).map(toPet);
  const last = pets.at(-1);
  return (items.length > limit || stoppedEarly) && last ? { pets, nextAfterId: last.id } : { pets };
}

// The Pet fields only, in the spec's order.
function toPet(item: Record<string, unknown>): Pet {
  const pet: Pet = { id: item.id as number, name: item.name as string, categoryId: item.categoryId as number };
  if (item.status !== undefined) pet.status = item.status as Pet['status'];
  return pet;
}

function toStoredPet(item: Record<string, unknown>): StoredPet {
  return { pet: toPet(item), recordKey: item[RECORD_KEY] as string | undefined };
}
