/**
 * The zod schemas the OpenAPI document is generated from, turned into JSON Schema (draft 2020-12,
 * the dialect of OpenAPI 3.1) by zod itself. The domain schemas (lib/domain) are used as they are;
 * the only schema defined here is the Error body, which the HTTP layer describes as a TypeScript
 * interface (lib/http/errors.ts) and which is checked below to stay the same type.
 */
import * as z from 'zod/mini';
import { NewPet, Pet, Pets, PetStatus } from '#lib/domain/pet.ts';
import { IdempotencyKeyHeader, ListPetsQuery, PetIdPath } from '#lib/domain/requests.ts';
import { IDEMPOTENCY_KEY_HEADER } from '#lib/http/idempotency-key.ts';
import { ERROR_CODES, ERRORS, type ErrorBody as ErrorBodyType, type ErrorCode as ErrorCodeType } from '#lib/http/errors.ts';

export const ERROR_CODE_VALUES = Object.keys(ERROR_CODES) as [ErrorCodeType, ...ErrorCodeType[]];

/** The example of the Error body: a `validation_failed`, its message the code's meaning. */
const { status, meaning } = ERRORS.validation_failed;
const EXAMPLE_ERROR = { code: 'validation_failed', message: meaning.charAt(0).toUpperCase() + meaning.slice(1), status } as const;

export const ErrorCode = z.enum(ERROR_CODE_VALUES).check(z.meta({ examples: [EXAMPLE_ERROR.code] }));

/** The Error body (`{code, message, status}`) with the service's codes. */
export const ErrorBody = z
  .strictObject({
    code: ErrorCode,
    message: z.string(),
    status: z.int().check(z.minimum(400), z.maximum(599)),
  })
  .check(z.meta({ examples: [EXAMPLE_ERROR] }));

// Compile-time guard: the schema and lib/http/errors.ts's ErrorBody interface describe one type.
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const errorBodyMatchesInterface: MutuallyAssignable<z.infer<typeof ErrorBody>, ErrorBodyType> = true;
void errorBodyMatchesInterface;

/** A JSON Schema object, as zod emits it and OpenAPI 3.1 embeds it. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * Named components, in document order, with the prose the schemas cannot carry. `io` says which
 * side of a schema is documented: what a client sends (`input`) or what the service returns
 * (`output`); they differ once a schema has a default or a transform.
 */
const COMPONENTS = [
  { id: 'PetStatus', schema: PetStatus, io: 'output', description: 'Availability status of an animal.' },
  { id: 'Pet', schema: Pet, io: 'output', description: 'An animal, as returned. `status` is absent when it was not given on creation.' },
  {
    id: 'NewPet',
    schema: NewPet,
    io: 'input',
    description: 'An animal, as sent on creation. The service assigns `id`; sending it is an error.',
  },
  { id: 'Pets', schema: Pets, io: 'output', description: 'A page of animals: the body of `listPets`.' },
  { id: 'ErrorCode', schema: ErrorCode, io: 'output', description: 'Machine-readable error code.' },
  {
    id: 'Error',
    schema: ErrorBody,
    io: 'output',
    description: 'Every error answer: `status` repeats the HTTP status code of the response.',
  },
] as const;

/** Request parameter objects, converted for their properties only (one parameter each). */
const PARAMETER_SCHEMAS = [
  { id: 'ListPetsQuery', schema: ListPetsQuery },
  { id: 'PetIdPath', schema: PetIdPath },
] as const;

/** Request header parameters: the header's name, the schema its value is checked with, an example. */
const HEADER_SCHEMAS = {
  IdempotencyKeyHeader: { name: IDEMPOTENCY_KEY_HEADER, schema: IdempotencyKeyHeader, example: '6f1c2d9e-8b7a-4c3f-9e2d-1a0b3c4d5e6f' },
} as const satisfies Record<string, { name: string; schema: z.core.$ZodType; example: string }>;

export type ComponentId = (typeof COMPONENTS)[number]['id'];
export type ParameterSchemaId = (typeof PARAMETER_SCHEMAS)[number]['id'];
export type HeaderSchemaId = keyof typeof HEADER_SCHEMAS;

export const componentRef = (id: ComponentId): JsonSchema => ({ $ref: `#/components/schemas/${id}` });

/** A component's first example: its schema's own (`z.meta({ examples })`). */
export function componentExample(id: ComponentId): unknown {
  const schema = COMPONENTS.find((c) => c.id === id)?.schema;
  const [example] = ((schema && z.globalRegistry.get(schema)?.examples) as readonly unknown[] | undefined) ?? [];
  return example;
}

export interface GeneratedSchemas {
  readonly components: Record<ComponentId, JsonSchema>;
  /** Per parameter object: the JSON Schema of each property, and which properties are required. */
  readonly parameters: Record<ParameterSchemaId, { properties: Record<string, JsonSchema>; required: string[] }>;
}

/**
 * Converts the schemas with `z.toJSONSchema`, one pass per side (input and output). A schema that
 * is a component anywhere becomes a `$ref` to it everywhere. Zod's `$schema` and `$id` are dropped:
 * inside an OpenAPI 3.1 document the dialect is the document's and the location is the component's.
 */
export function generateSchemas(): GeneratedSchemas {
  const output = convert(
    COMPONENTS.filter((c) => c.io === 'output'),
    [],
    'output',
  );
  const input = convert(
    COMPONENTS.filter((c) => c.io === 'input'),
    PARAMETER_SCHEMAS,
    'input',
  );

  const components = {} as Record<ComponentId, JsonSchema>;
  for (const { id, description } of COMPONENTS) {
    const schema = output[id] ?? input[id];
    if (!schema) throw new Error(`zod produced no JSON Schema for component ${id}`);
    if (!Array.isArray(schema.examples)) throw new Error(`Schema ${id} has no example: give it .check(z.meta({ examples: [...] }))`);
    components[id] = { description, ...schema };
  }

  const parameters = {} as GeneratedSchemas['parameters'];
  for (const { id } of PARAMETER_SCHEMAS) {
    const schema = input[id];
    if (schema?.type !== 'object' || typeof schema.properties !== 'object' || schema.properties === null) {
      throw new Error(`${id} must be a zod object schema`);
    }
    parameters[id] = {
      properties: schema.properties as Record<string, JsonSchema>,
      required: Array.isArray(schema.required) ? (schema.required as string[]) : [],
    };
  }
  return { components, parameters };
}

function convert(
  documented: readonly (typeof COMPONENTS)[number][],
  extra: readonly (typeof PARAMETER_SCHEMAS)[number][],
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  // Every component is registered in both passes so that references to it (PetStatus inside
  // NewPet or inside the query) become $refs; only the side's own components are kept.
  for (const { id, schema } of [...COMPONENTS, ...extra]) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'throw',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  if ('__shared' in schemas) throw new Error('zod extracted shared definitions; register the reused schema as a component');
  const wanted = new Set<string>([...documented.map((c) => c.id), ...extra.map((p) => p.id)]);
  const result: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    if (!wanted.has(id)) continue;
    const { $schema: _dialect, $id: _location, ...rest } = schema;
    result[id] = rest;
  }
  return result;
}

/** A request header's name, its schema as a standalone JSON Schema, and its example. */
export function headerSchema(id: HeaderSchemaId): { name: string; schema: JsonSchema; example: string } {
  const { name, schema, example } = HEADER_SCHEMAS[id];
  return { name, schema: standaloneSchema(schema), example };
}

/** One zod schema as a standalone JSON Schema, without zod's `$schema`. */
function standaloneSchema(schema: z.core.$ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'throw',
  }) as JsonSchema;
  return rest;
}
