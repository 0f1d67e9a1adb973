/**
 * The one point where a schema failure becomes a 400 `validation_failed`. The message names every
 * offending field and what it must be, so a person can fix the request without reading the docs.
 */
import type * as z from 'zod/mini';
import { HttpError } from './errors.ts';

export type InputSource = 'request body' | 'query parameter' | 'path parameter';

interface Issue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly keys?: readonly string[];
}

export function validate<S extends z.ZodMiniType>(schema: S, input: unknown, source: InputSource): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data as z.infer<S>;
  const allowed = allowedKeys(schema);
  const problems = (result.error.issues as readonly Issue[]).map((issue) => describe(issue, input, source, allowed));
  // Two checks of one field can fail alike (an id past 2^53 is neither a safe integer nor in range).
  throw new HttpError('validation_failed', `Invalid ${source}: ${[...new Set(problems)].join('; ')}.`);
}

function describe(issue: Issue, input: unknown, source: InputSource, allowed: string[]): string {
  const field = issue.path.map(String).join('.');
  const noun = source === 'request body' ? 'field' : source;
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue.keys ?? []).map((k) => `"${k}"`).join(', ');
    const plural = (issue.keys?.length ?? 0) > 1 ? 's' : '';
    return `unknown ${noun}${plural} ${keys} (allowed: ${allowed.join(', ') || 'none'})`;
  }
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
    return `${field} is required`;
  }
  return field === '' ? issue.message : `${field} ${issue.message}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function allowedKeys(schema: z.ZodMiniType): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}
