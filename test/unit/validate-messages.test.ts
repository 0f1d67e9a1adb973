import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { validate } from '#lib/http/validate.ts';
import { thrownHttpError } from '../support/http-error.ts';

/** A schema whose checks carry no words of their own: validate.ts says what to change for each kind of issue. */
const Plain = z.strictObject({
  flag: z.optional(z.boolean()),
  tags: z.optional(z.array(z.string()).check(z.maxLength(2))),
  code: z.optional(z.string().check(z.minLength(3))),
  step: z.optional(z.int().check(z.multipleOf(5))),
  kind: z.optional(z.literal('a')),
  mail: z.optional(z.email()),
  need: z.string(),
});

describe('validate: what to change, for every kind of issue', () => {
  it.each([
    [{ need: 'x', flag: 'yes' }, 'flag must be a boolean'],
    [{ need: 'x', tags: ['a', 'b', 'c'] }, 'tags must be at most 2 items'],
    [{ need: 'x', code: 'ab' }, 'code must be at least 3 characters long'],
    [{ need: 'x', step: 7 }, 'step must be a multiple of 5'],
    [{ need: 'x', kind: 'b' }, 'kind must be one of a'],
    [{ need: 'x', mail: 'nobody' }, 'mail must be a valid email'],
    [{}, 'need is required'],
    [{ need: 'x', other: 1 }, 'unknown field "other"'],
  ])('%j → %s', (body, message) => {
    expect(thrownHttpError(() => validate(Plain, body, 'request body')).message).toContain(message);
  });
});
