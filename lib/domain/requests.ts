import * as z from 'zod/mini';
import { INT64, LIST_LIMIT, MAX_PET_ID, PetStatus } from './pet.ts';

const limitMessage = `must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`;

export const ListLimit = z._default(
  z
    .int({ error: limitMessage })
    .check(
      z.minimum(LIST_LIMIT.min, { error: limitMessage }),
      z.maximum(LIST_LIMIT.max, { error: limitMessage }),
      z.meta({ format: 'int32' }),
    ),
  LIST_LIMIT.default,
);

/** Far above the longest cursor the service issues (72 characters), far below anything costly. */
export const MAX_CURSOR_LENGTH = 128;

export const Cursor = z
  .string({ error: 'must be the cursor from a Link header' })
  .check(
    z.minLength(1, { error: 'must not be empty: pass the cursor from a Link header, or leave it out' }),
    z.maxLength(MAX_CURSOR_LENGTH, { error: `must be at most ${MAX_CURSOR_LENGTH} characters: pass the cursor from a Link header` }),
  );

export const ListPetsQuery = z.strictObject({
  limit: ListLimit,
  status: z.optional(PetStatus),
  cursor: z.optional(Cursor),
});
export type ListPetsQuery = z.infer<typeof ListPetsQuery>;

const petIdMessage = `must be a pet id, an integer from 1 to ${MAX_PET_ID}`;

export const PetIdPath = z.strictObject({
  petId: z
    .int({ error: petIdMessage })
    .check(z.minimum(1, { error: petIdMessage }), z.maximum(MAX_PET_ID, { error: petIdMessage }), z.meta(INT64)),
});

/** Canonical decimal text (no sign, no leading zero, at most 16 digits) → number; else unchanged. */
export function integerText(value: string): number | string {
  return /^(?:0|[1-9]\d{0,15})$/.test(value) ? Number(value) : value;
}

// Bare, or quoted as the IETF draft's structured-field string.
export const IdempotencyKeyHeader = z.string().check(
  z.regex(/^(?:[!#-~]{1,255}|"[!#-~]{1,255}")$/, {
    error: 'use 1 to 255 visible ASCII characters other than ", such as a UUID, bare or in double quotes',
  }),
);
