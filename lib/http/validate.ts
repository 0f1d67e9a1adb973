/** The one point where a schema failure becomes a 400 `validation_failed`. */
import type * as z from 'zod/mini';
import { HttpError } from './errors.ts';

export type InputSource = 'request body' | 'query parameter' | 'path parameter';

export function validate<S extends z.ZodMiniType>(schema: S, input: unknown, source: InputSource): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data as z.infer<S>;
  const allowed = allowedKeys(schema);
  const problems = result.error.issues.map((issue) => describe(issue, input, source, allowed));
  // Two checks of one field can fail alike (an id past 2^53 is neither a safe integer nor in range).
  throw new HttpError('validation_failed', `Invalid ${source}: ${[...new Set(problems)].join('; ')}.`);
}

function describe(issue: z.core.$ZodIssue, input: unknown, source: InputSource, allowed: string[]): string {
  const field = issue.path.map(String).join('.');
  const noun = source === 'request body' ? 'field' : source;
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    const plural = issue.keys.length > 1 ? 's' : '';
    return `unknown ${noun}${plural} ${keys} (allowed: ${allowed.join(', ') || 'none'})`;
  }
  const what = (change: string) => (field === '' ? change : `${field} ${change}`);
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) return what('is required');
  if (issue.message.startsWith('must ')) return what(issue.message);
  const unit = (origin: string) => (origin === 'string' ? ' characters long' : origin === 'array' ? ' items' : '');
  switch (issue.code) {
    case 'invalid_type':
      return what(`must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`);
    case 'too_small':
      return what(`must be at least ${issue.minimum}${unit(issue.origin)}`);
    case 'too_big':
      return what(`must be at most ${issue.maximum}${unit(issue.origin)}`);
    case 'invalid_value':
      return what(`must be one of ${issue.values.map(String).join(', ')}`);
    case 'invalid_format':
      return what(`must be a valid ${issue.format}`);
    case 'not_multiple_of':
      return what(`must be a multiple of ${issue.divisor}`);
    default:
      return what(`is invalid (${issue.message})`);
  }
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
