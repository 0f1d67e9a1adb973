/**
 * The zod schemas the OpenAPI document is generated from, turned into JSON Schema (draft 2020-12,
 * the dialect of OpenAPI 3.1) by zod itself.
 */
import * as z from 'zod/mini';
import '#lib/domain/pet.ts';
import { IdempotencyKeyHeader, ListPetsQuery, PetIdPath } from '#lib/domain/requests.ts';
import { IDEMPOTENCY_KEY_HEADER } from '#lib/http/idempotency-key.ts';
import { operations } from '#lib/operations.ts';
import type { HttpMethod, Operation } from '#lib/operations/operation.ts';
import { ERROR_CODES, ERRORS, type ErrorBody as ErrorBodyType, type ErrorCode as ErrorCodeType } from '#lib/http/errors.ts';

export const ERROR_CODE_VALUES = Object.keys(ERROR_CODES) as [ErrorCodeType, ...ErrorCodeType[]];

/** The example of the Error body: a `validation_failed`, its message the code's meaning. */
const { status, meaning } = ERRORS.validation_failed;
const EXAMPLE_ERROR = { code: 'validation_failed', message: meaning.charAt(0).toUpperCase() + meaning.slice(1), status } as const;

export const ErrorCode = z
  .enum(ERROR_CODE_VALUES)
  .check(z.meta({ id: 'ErrorCode', description: 'Machine-readable error code.', examples: [EXAMPLE_ERROR.code] }));

/** The Error body (`{code, message, status}`) with the service's codes. */
export const ErrorBody = z
  .strictObject({
    code: ErrorCode,
    message: z.string(),
    status: z.int().check(z.minimum(400), z.maximum(599)),
  })
  .check(
    z.meta({
      id: 'Error',
      description: 'Every error answer: `status` repeats the HTTP status code of the response.',
      examples: [EXAMPLE_ERROR],
    }),
  );

// Compile-time guard: the schema and lib/http/errors.ts's ErrorBody interface describe one type.
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const errorBodyMatchesInterface: MutuallyAssignable<z.infer<typeof ErrorBody>, ErrorBodyType> = true;
void errorBodyMatchesInterface;

/** A JSON Schema object, as zod emits it and OpenAPI 3.1 embeds it. */
export type JsonSchema = { [keyword: string]: unknown };

/** The components: every schema with a meta `id`, in definition order. */
const COMPONENTS = [...z.globalRegistry._idmap].map(([id, schema]) => ({
  id,
  schema,
  io: operations.some((o) => o.requestBody?.schema === id) ? ('input' as const) : ('output' as const),
}));

/** Request parameter objects, converted for their properties only (one parameter each). */
const PARAMETER_SCHEMAS = [
  { id: 'ListPetsQuery', schema: ListPetsQuery },
  { id: 'PetIdPath', schema: PetIdPath },
] as const;

/** Request header parameters: the header's name, the schema its value is checked with, an example. */
const HEADER_SCHEMAS = {
  IdempotencyKeyHeader: { name: IDEMPOTENCY_KEY_HEADER, schema: IdempotencyKeyHeader, example: '6f1c2d9e-8b7a-4c3f-9e2d-1a0b3c4d5e6f' },
} as const satisfies Record<string, { name: string; schema: z.core.$ZodType; example: string }>;

/** A component, by its schema's meta `id`. */
export type ComponentId = string;
type HeaderSchemaId = keyof typeof HEADER_SCHEMAS;

export const componentRef = (id: ComponentId): JsonSchema => ({ $ref: `#/components/schemas/${id}` });

/** A component's first example: its schema's own (`z.meta({ examples })`). */
export function componentExample(id: ComponentId): unknown {
  const schema = z.globalRegistry._idmap.get(id);
  if (!schema) throw new Error(`No schema has the meta id ${id} (lib/domain)`);
  return (z.globalRegistry.get(schema)?.examples as readonly unknown[] | undefined)?.[0];
}

export interface GeneratedSchemas {
  readonly components: Record<ComponentId, JsonSchema> & { readonly Error: JsonSchema };
  /** Per parameter object: the JSON Schema of each property, and which properties are required. */
  readonly parameters: Partial<Record<string, { properties: Record<string, JsonSchema>; required: string[] }>>;
}

/** Converts the schemas with `z.toJSONSchema`, one pass per side (input and output). */
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

  const components = {} as GeneratedSchemas['components'];
  for (const { id } of COMPONENTS) {
    const { description, examples, ...schema } = output[id] ?? input[id] ?? {};
    if (typeof description !== 'string' || !Array.isArray(examples)) {
      throw new Error(`Schema ${id} needs a description and examples: .check(z.meta({ id, description, examples: [...] }))`);
    }
    components[id] = { description, ...schema, examples };
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
export function headerSchema(id: string): { name: string; schema: JsonSchema; example: string } {
  const header = HEADER_SCHEMAS[id as HeaderSchemaId];
  if (!header) throw new Error(`No request header schema ${id} in HEADER_SCHEMAS`);
  const { name, schema, example } = header;
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

/** A request an operation answers with its success status (the suites that treat every operation alike, the benchmark). */
export interface OperationRequest {
  readonly method: HttpMethod;
  /** Relative to the base URL (`/pets/1`). */
  readonly path: string;
  /** A JSON body, for an operation that takes one. */
  readonly body?: string;
}

/** `petId` fills the path's `{petId}`; a request body is its schema's example, named `name` if it has a name. */
export function validRequest(operation: Operation, { petId, name }: { petId: number; name: string }): OperationRequest {
  const example = operation.requestBody && componentExample(operation.requestBody.schema);
  const body = typeof example === 'object' && example !== null && 'name' in example ? { ...example, name } : example;
  return {
    method: operation.method,
    path: operation.resource.replace('{petId}', String(petId)),
    ...(operation.requestBody ? { body: JSON.stringify(body) } : {}),
  };
}
