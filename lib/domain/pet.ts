/**
 * The Pet resource as zod schemas: one definition gives runtime validation, the
 * TypeScript types and, later, the OpenAPI document. `zod/mini` keeps the bundles small.
 */
import * as z from 'zod/mini';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export const MAX_NAME_LENGTH = 200;
export const MAX_PET_ID = Number.MAX_SAFE_INTEGER;

export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

export const PetStatus = z.enum(PET_STATUSES, {
  error: `must be one of ${PET_STATUSES.join(', ')}`,
});
export type PetStatus = z.infer<typeof PetStatus>;

/** An id is an int64, for the OpenAPI document; `z.meta` adds metadata and validates nothing. */
export const INT64 = { format: 'int64' } as const;

/** A positive integer within JavaScript's safe range: the id and categoryId domain. */
const positiveSafeInteger = (what: string) =>
  z
    .int({ error: `must be ${what}, an integer from 1 to ${MAX_PET_ID}` })
    .check(z.minimum(1, { error: `must be ${what}, an integer from 1 to ${MAX_PET_ID}` }), z.meta(INT64));

/**
 * Not empty after trimming, said so the OpenAPI document can state it: JavaScript's `\s` is exactly
 * the set `trim()` removes, so "has a non-`\s` character" is "non-empty after trimming"
 * (`minLength: 1` is implied, and stated for generators that do not run patterns).
 */
export const PetName = z.string({ error: 'must be a string' }).check(
  z.regex(/\S/, { error: 'must not be empty or only white space' }),
  z.meta({ minLength: 1 }),
  z.maxLength(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters long` }),
  // JSON lets "\ud800" through, but it is no character: UTF-8 cannot encode it, and strict JSON
  // parsers (Rust's serde_json, for one) would refuse every list page that returned it.
  z.refine((name) => name.isWellFormed(), {
    error: 'must be Unicode text: it contains a lone surrogate (a \\uD800–\\uDFFF escape without its pair)',
  }),
);

export const PetId = positiveSafeInteger('a pet id');

/** NewPet: what a client sends. Unknown fields, `id` included, are rejected. */
export const NewPet = z.strictObject({
  name: PetName,
  categoryId: positiveSafeInteger('a category id'),
  status: z.optional(PetStatus),
});
export type NewPet = z.infer<typeof NewPet>;

/** Pet: what the service returns. */
export const Pet = z.strictObject({
  id: PetId,
  name: PetName,
  categoryId: positiveSafeInteger('a category id'),
  status: z.optional(PetStatus),
});
export type Pet = z.infer<typeof Pet>;

/** A page of pets: never more than the largest `limit`. */
export const Pets = z.array(Pet).check(z.maxLength(LIST_LIMIT.max));
