/**
 * Facts the README and docs/ restate in prose are the code's: each number below is read from the
 * prose and compared with the constant it restates, and the README's table of error codes lists
 * exactly the codes the service answers with, at their statuses. (Tables the code can write are
 * generated instead: `npm run docs`, checked by test/cli/docs.test.ts.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownFiles } from '../../infra/docs/generate.ts';
import { MAX_AUTHORIZATION_LENGTH } from '#lib/http/bearer-auth.ts';
import { LIST_LIMIT, MAX_NAME_LENGTH } from '#lib/domain/pet.ts';
import { MAX_CURSOR_LENGTH } from '#lib/domain/requests.ts';
import { ERROR_CODES } from '#lib/http/errors.ts';
import { MAX_BODY_SIZE } from '#lib/http/json-body.ts';
import { IDEMPOTENCY_TTL_SECONDS } from '#lib/store/idempotency.ts';
import { MAX_CACHE_ENTRIES } from '#lib/auth/key-verifier.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const docs = markdownFiles(ROOT).map((file) => ({ file: path.relative(ROOT, file), text: readFileSync(file, 'utf8') }));

/** Every match of `pattern` (with one group) in README.md and docs/, with where it stands. */
function mentions(pattern: RegExp): { where: string; value: string }[] {
  return docs.flatMap(({ file, text }) =>
    [...text.matchAll(new RegExp(pattern, 'g'))].map((m) => ({ where: `${file}: "${m[0]}"`, value: m[1] as string })),
  );
}

describe('numbers in the prose', () => {
  it.each([
    ['the request body limit', /\b(?:over|past|at most) (\d+ KiB)/, MAX_BODY_SIZE],
    ['the longest name', /\bat most (\d+) characters(?:,| of Unicode)/, String(MAX_NAME_LENGTH)],
    ['the longest Authorization value', /Authorization` value longer than (\d+) characters/, String(MAX_AUTHORIZATION_LENGTH)],
    ['the longest cursor', /(?:cursor`? is|checksum,) at most (\d+) characters/, String(MAX_CURSOR_LENGTH)],
    ['the range of limit', /`limit`[^|\n]*?\b(\d+\.\.\d+)/, `${LIST_LIMIT.min}..${LIST_LIMIT.max}`],
    ['the default of limit', /\d+\.\.\d+,? \(?default (\d+)/, String(LIST_LIMIT.default)],
    ['how long an Idempotency-Key is remembered', /remembered (?:for )?(\d+ hours)/, `${IDEMPOTENCY_TTL_SECONDS / 3600} hours`],
    ['the key cache, for known and unknown keys each', /at most ([\d,]+) of each/, MAX_CACHE_ENTRIES.toLocaleString('en-US')],
  ])('%s', (_fact, pattern, expected) => {
    const found = mentions(pattern);
    expect(found.length, `no mention found for ${pattern}`).toBeGreaterThan(0);
    for (const { where, value } of found) expect(value, where).toBe(expected);
  });
});

describe("the README's error codes", () => {
  it('lists every code the service answers with, at its status, and no other', () => {
    const readme = docs.find((d) => d.file === 'README.md')?.text ?? '';
    const rows = [...readme.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => [m[2], Number(m[1])]);
    expect(Object.fromEntries(rows)).toEqual(ERROR_CODES);
    expect(rows).toHaveLength(Object.keys(ERROR_CODES).length);
  });
});
