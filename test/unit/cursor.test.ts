import { describe, expect, it } from 'vitest';
import { PET_STATUSES } from '#lib/domain/pet.ts';
import { MAX_CURSOR_LENGTH } from '#lib/domain/requests.ts';
import { decodeCursor, encodeCursor } from '#lib/http/cursor.ts';
import { thrownHttpError } from '../support/http-error.ts';

describe('cursor codec', () => {
  it('round-trips the position for the filter it was issued for', () => {
    expect(decodeCursor(encodeCursor(undefined, 42), undefined)).toBe(42);
    expect(decodeCursor(encodeCursor('sold', Number.MAX_SAFE_INTEGER), 'sold')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('stays within the documented bound (MAX_CURSOR_LENGTH), however long its status and id', () => {
    const longest = Math.max(...[undefined, ...PET_STATUSES].map((status) => encodeCursor(status, Number.MAX_SAFE_INTEGER).length));
    expect(longest).toBeLessThanOrEqual(72);
    expect(longest).toBeLessThan(MAX_CURSOR_LENGTH);
  });

  it('is URL-safe text', () => {
    expect(encodeCursor('available', 123456789)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('refuses a cursor issued for another filter', () => {
    expect(thrownHttpError(() => decodeCursor(encodeCursor('sold', 1), 'available')).code).toBe('invalid_cursor');
    expect(thrownHttpError(() => decodeCursor(encodeCursor('sold', 1), undefined)).code).toBe('invalid_cursor');
    expect(thrownHttpError(() => decodeCursor(encodeCursor(undefined, 1), 'sold')).code).toBe('invalid_cursor');
  });

  it('refuses truncated, edited and invented cursors', () => {
    const cursor = encodeCursor(undefined, 987654321);
    const edited = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    for (const bad of [cursor.slice(0, -1), cursor.slice(0, 10), edited, 'abc', '.', `${cursor}.x`, 'e30.AAAAAAAAAAAA']) {
      expect(thrownHttpError(() => decodeCursor(bad, undefined)).code, bad).toBe('invalid_cursor');
    }
  });
});
