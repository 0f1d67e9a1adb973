/**
 * Idempotent creates without transactions. The first request with a key reserves a record
 * {key → pet id, body hash}; every request with that key then does the same conditional put of
 * the pet under the reserved id. Exactly one put can succeed, so the pet is created once, whoever
 * gets there first, whether the earlier request finished, is still running or died half-way; the
 * others read the pet back. A different body under the same key is refused.
 *
 * This module is the protocol alone. Its storage steps are behind two small interfaces (records:
 * IdempotencyRecordStore, on DynamoDB in dynamodb-idempotency-records.ts; pets: PetWrites, from the
 * pet store), so unit tests can run any interleaving of concurrent requests step by step.
 */
import { hash } from 'node:crypto';
import type { NewPet, Pet } from '../domain/pet.ts';
import { IdempotencyKeyReusedError } from './store-errors.ts';
import { generatePetId } from './ids.ts';
import type { CreatedPet } from './pet-store.ts';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const MAX_ATTEMPTS = 4;

export interface IdempotencyRecord {
  readonly recordKey: string;
  readonly petId: number;
  readonly bodyHash: string;
  /** Epoch seconds: DynamoDB TTL deletes the record some time after; reads ignore it from then. */
  readonly expiresAt: number;
}

/**
 * The records' storage. Each call is one atomic step; the protocol relies on nothing else, so it
 * holds under any interleaving of these calls from concurrent requests.
 */
export interface IdempotencyRecordStore {
  /** Stores `record` unless its key holds a record that has not expired at `nowSeconds`: true when stored. */
  reserve(record: IdempotencyRecord, nowSeconds: number): Promise<boolean>;
  /** The key's record as stored now (expired or not), or undefined when there is none. */
  read(recordKey: string): Promise<IdempotencyRecord | undefined>;
  /** Points the key's record at `toPetId` if it still points at `fromPetId`; otherwise leaves it as it is. */
  repoint(recordKey: string, fromPetId: number, toPetId: number): Promise<void>;
}

/** The pets' storage, as the protocol uses it. */
export interface PetWrites {
  /** Conditional put: true when this call stored the pet, false when a pet with its id exists. */
  put(pet: Pet): Promise<boolean>;
  get(id: number): Promise<Pet | undefined>;
}

export interface IdempotencyProtocolOptions {
  /** Epoch milliseconds. */
  readonly now?: () => number;
  readonly newPetId?: () => number;
}

export class IdempotencyProtocol {
  readonly #records: IdempotencyRecordStore;
  readonly #pets: PetWrites;
  readonly #now: () => number;
  readonly #newPetId: () => number;

  constructor(
    records: IdempotencyRecordStore,
    pets: PetWrites,
    { now = Date.now, newPetId = () => generatePetId() }: IdempotencyProtocolOptions = {},
  ) {
    this.#records = records;
    this.#pets = pets;
    this.#now = now;
    this.#newPetId = newPetId;
  }

  async run(recordKey: string, newPet: NewPet): Promise<CreatedPet> {
    const bodyHash = hashNewPet(newPet);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const record = await this.#reserve(recordKey, bodyHash);
      if (record.bodyHash !== bodyHash) throw new IdempotencyKeyReusedError();
      // Whoever reserved the key, the request whose put succeeds is the one that created the pet.
      const pet: Pet = { id: record.petId, ...newPet };
      if (await this.#pets.put(pet)) return { pet, replayed: false };
      const existing = await this.#pets.get(record.petId);
      if (existing && hashNewPet(existing) === bodyHash) return { pet: existing, replayed: true };
      // The reserved id went to an unrelated pet (two ids drawn alike in one millisecond):
      // point the record at a fresh id, unless a concurrent request already did.
      await this.#records.repoint(recordKey, record.petId, this.#newPetId());
    }
    throw new Error(`Idempotent create did not settle after ${MAX_ATTEMPTS} attempts`);
  }

  /** The key's record: a new one reserved by this call, or the one already there. */
  async #reserve(recordKey: string, bodyHash: string): Promise<IdempotencyRecord> {
    const nowSeconds = Math.floor(this.#now() / 1000);
    const record: IdempotencyRecord = { recordKey, petId: this.#newPetId(), bodyHash, expiresAt: nowSeconds + IDEMPOTENCY_TTL_SECONDS };
    if (await this.#records.reserve(record, nowSeconds)) return record;
    const existing = await this.#records.read(recordKey);
    if (existing) return existing;
    // Deleted between our reserve and our read: reserve again.
    return this.#reserve(recordKey, bodyHash);
  }
}

/** The record key: the caller's key id and its Idempotency-Key, so callers never share records. */
export function idempotencyRecordKey(callerId: string, idempotencyKey: string): string {
  return hash('sha256', `${callerId}\n${idempotencyKey}`, 'hex');
}

/** Hash of the pet's fields in a fixed order: bodies that parse to the same pet hash alike. */
export function hashNewPet(pet: NewPet): string {
  return hash('sha256', JSON.stringify([pet.name, pet.categoryId, pet.status ?? null]), 'hex');
}
