/**
 * The Pet resource as zod schemas: one definition gives runtime validation, the
 * TypeScript types and, later, the OpenAPI document. `zod/mini` keeps the bundles small.
 */
import * as z from 'zod/mini';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export const MAX_NAME_LENGTH = 200;
export const MAX_PET_ID = Number.MAX_SAFE_INTEGER;

export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** The animal every example shows. */
export const EXAMPLE_PET = { id: 1, name: 'Rex', categoryId: 1, status: 'available' } as const;
const { id: _, ...EXAMPLE_NEW_PET } = EXAMPLE_PET;

export const PetStatus = z
  .enum(PET_STATUSES, { error: `must be one of ${PET_STATUSES.join(', ')}` })
  .check(z.meta({ id: 'PetStatus', description: 'Availability status of an animal.', examples: [EXAMPLE_PET.status] }));
export type PetStatus = z.infer<typeof PetStatus>;

/** An id is an int64, for the OpenAPI document; `z.meta` adds metadata and validates nothing. */
export const INT64 = { format: 'int64' } as const;

/** A positive integer within JavaScript's safe range: the id and categoryId domain. */
const positiveSafeInteger = (what: string) =>
  z
    .int({ error: `must be ${what}, an integer from 1 to ${MAX_PET_ID}` })
    .check(z.minimum(1, { error: `must be ${what}, an integer from 1 to ${MAX_PET_ID}` }), z.meta(INT64));

/**
 * A name as the service returns it: not empty after trimming (JavaScript's `\s` is exactly the set
 * `trim()` removes; `minLength: 1` is stated for generators that do not run patterns), at most
 * MAX_NAME_LENGTH. Names stored before NewPetName's rule are returned as stored.
 */
const PetName = z.string().check(z.regex(/\S/), z.meta({ minLength: 1 }), z.maxLength(MAX_NAME_LENGTH));

/**
 * Text a person can read: a visible character, that is neither white space nor default-ignorable,
 * and no control (Cc), lone surrogate (Cs), bidirectional embedding, override or isolate.
 */
// biome-ignore lint/complexity/useRegexLiterals: a literal's control and combining ranges trip two lints, on purpose here.
const READABLE = new RegExp(
  String.raw`^(?=[\s\S]*[^\s\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFFA0\uFFF0-\uFFF8\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}])[^\u0000-\u001F\u007F-\u009F\uD800-\uDFFF\u202A-\u202E\u2066-\u2069]*$`,
  'u',
);

/** A name as a client sends it: text a person can read (docs/behaviour.md), stored in NFC so that two spellings of one name are one. */
const NewPetName = z.string({ error: 'must be a string' }).check(
  z.normalize('NFC'),
  // A refinement, not a `pattern`: lookahead and `\u{…}` mean nothing to Python's `re` or RE2, and
  // no portable pattern can say the rest (astral ignorables, lone surrogates); the description does.
  z.refine((name: string) => READABLE.test(name), {
    error:
      'must be text a person can read: at least one visible character, and no control character (line break, tab, escape, NUL…), ' +
      'bidirectional override (U+202A–U+202E, U+2066–U+2069) or lone surrogate (a \\uD800–\\uDFFF escape without its pair)',
  }),
  z.meta({
    minLength: 1,
    description:
      'Text a person can read, stored in Unicode NFC: at least one character that is neither white space nor default-ignorable ' +
      '(Unicode Default_Ignorable_Code_Point: zero-width, format, variation selectors); no control characters (Cc), ' +
      'bidirectional embeddings, overrides or isolates (U+202A–U+202E, U+2066–U+2069), or lone surrogates.',
  }),
  z.maxLength(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters long` }),
);

export const PetId = positiveSafeInteger('a pet id');

/** Pet: what the service returns. */
export const Pet = z
  .strictObject({
    id: PetId,
    name: PetName,
    categoryId: positiveSafeInteger('a category id'),
    status: z.optional(PetStatus),
  })
  .check(
    z.meta({
      id: 'Pet',
      description: 'An animal, as returned. `status` is absent when it was not given on creation.',
      examples: [EXAMPLE_PET],
    }),
  );
export type Pet = z.infer<typeof Pet>;

/** NewPet: what a client sends. Unknown fields, `id` included, are rejected. */
export const NewPet = z
  .strictObject({
    name: NewPetName,
    categoryId: positiveSafeInteger('a category id'),
    status: z.optional(PetStatus),
  })
  .check(
    z.meta({
      id: 'NewPet',
      description: 'An animal, as sent on creation. The service assigns `id`; sending it is an error.',
      examples: [EXAMPLE_NEW_PET],
    }),
  );
export type NewPet = z.infer<typeof NewPet>;

/** A page of pets: never more than the largest `limit`. @public (a component of the document only) */
export const Pets = z
  .array(Pet)
  .check(
    z.maxLength(LIST_LIMIT.max),
    z.meta({ id: 'Pets', description: 'A page of animals: the body of `listPets`.', examples: [[EXAMPLE_PET]] }),
  );
