// What the handlers need from storage; DynamoDB stays behind it.
import type { NewPet, Pet, PetStatus } from '../domain/pet.ts';

export interface ListPetsRequest {
  readonly limit: number;
  readonly status?: PetStatus;
  readonly afterId?: number; // the previous page's nextAfterId
}

export interface PetPage {
  readonly pets: Pet[];
  readonly nextAfterId?: number;
}

export interface CreatedPet {
  readonly pet: Pet;
  readonly replayed: boolean;
}

export interface CreateOptions {
  /** Scoped to the caller (idempotencyRecordKey); docs/data-model.md#idempotent-creates. */
  readonly idempotencyKey?: string;
}

export interface ReadOptions {
  // Writes take none: a write stopped half-way could leave a pet stored but not acknowledged.
  readonly signal?: AbortSignal;
}

export interface PetStore {
  create(newPet: NewPet, options?: CreateOptions): Promise<CreatedPet>;
  get(id: number, options?: ReadOptions): Promise<Pet | undefined>;
  list(request: ListPetsRequest, options?: ReadOptions): Promise<PetPage>;
}
