// docs/data-model.md#idempotent-creates. Storage sits behind two interfaces so tests can step through any interleaving.
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
  /** Set once a put of this key stored the pet: from then on its id is never put again, even once the pet is deleted. */
  readonly created?: true;
}

/** Each call is one atomic step; the protocol relies on nothing else. */
export interface IdempotencyRecordStore {
  /** Stores `record` unless its key holds a record that has not expired at `nowSeconds`: true when stored. */
  reserve(record: IdempotencyRecord, nowSeconds: number): Promise<boolean>;
  /** The key's record as stored now (expired or not), or undefined when there is none. */
  read(recordKey: string): Promise<IdempotencyRecord | undefined>;
  /** Points the key's record at `toPetId` if it still points at `fromPetId` and is not `created`; otherwise leaves it as it is. */
  repoint(recordKey: string, fromPetId: number, toPetId: number): Promise<void>;
  /** Marks the key's record `created` if it still points at `petId`; otherwise leaves it as it is. */
  markCreated(recordKey: string, petId: number): Promise<void>;
}

/** A pet as stored, with the record key its create marked it with (none without a key). */
export interface StoredPet {
  readonly pet: Pet;
  readonly recordKey?: string | undefined;
}

export interface PetWrites {
  /** Conditional put: 'stored', or the pet already under its id as read after the refusal (undefined if gone). */
  put(pet: Pet, recordKey: string): Promise<'stored' | StoredPet | undefined>;
  get(id: number): Promise<StoredPet | undefined>;
}

export interface IdempotencyProtocolOptions {
  readonly now?: () => number; // epoch ms
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
      if (record.created) {
        // Stored once already: never put again, or a deleted pet would come back under its id.
        const existing = await this.#pets.get(pet.id);
        return { pet: existing?.recordKey === recordKey ? existing.pet : pet, replayed: true };
      }
      // A create answers only after the mark: a client that deletes the pet it was answered finds it marked.
      const put = await this.#pets.put(pet, recordKey);
      if (put === 'stored') {
        await this.#records.markCreated(recordKey, pet.id);
        return { pet, replayed: false };
      }
      // Ours when marked with our record key: no later write changes the mark, whatever it changes of the pet.
      if (put?.recordKey === recordKey) {
        await this.#records.markCreated(recordKey, pet.id);
        return { pet: put.pet, replayed: true };
      }
      // The reserved id went to an unrelated pet (two ids drawn alike in one millisecond), or its pet
      // is gone: point the record at a fresh id, unless a concurrent request did or it is marked.
      await this.#records.repoint(recordKey, record.petId, this.#newPetId());
    }
    throw new Error(`Idempotent create did not settle after ${MAX_ATTEMPTS} attempts`);
  }

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
