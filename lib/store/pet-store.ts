/**
 * What the handlers need from storage. DynamoDB stays behind this interface (see
 * dynamodb-pet-store.ts), so handlers and their tests speak only of pets.
 */
import type { NewPet, Pet, PetStatus } from '../domain/pet.ts';

export interface ListPetsRequest {
  readonly limit: number;
  readonly status?: PetStatus;
  /** Start after the pet with this id (from the previous page's `nextAfterId`). */
  readonly afterId?: number;
}

export interface PetPage {
  readonly pets: Pet[];
  /** Present when more pets may follow: pass it back as `afterId` for the next page. */
  readonly nextAfterId?: number;
}

export interface CreatedPet {
  readonly pet: Pet;
  /** True when an earlier request with the same idempotency key created this pet. */
  readonly replayed: boolean;
}

export interface CreateOptions {
  /**
   * Makes retries safe: the same key with the same pet creates it once and returns it every time
   * (also when the requests race); with another pet it fails with IdempotencyKeyReusedError.
   * Scope it to the caller (see idempotency.ts); records last 24 hours.
   */
  readonly idempotencyKey?: string;
}

export interface ReadOptions {
  /**
   * Aborting it stops the read, its retries included: the caller no longer wants the answer.
   * Writes take none: a write stopped half-way could leave a pet stored but not acknowledged.
   */
  readonly signal?: AbortSignal;
}

export interface PetStore {
  /** Assigns a new, never-used id and stores the pet; never overwrites an existing pet. */
  create(newPet: NewPet, options?: CreateOptions): Promise<CreatedPet>;
  get(id: number, options?: ReadOptions): Promise<Pet | undefined>;
  list(request: ListPetsRequest, options?: ReadOptions): Promise<PetPage>;
}
