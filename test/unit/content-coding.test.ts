/** Which Accept-Encoding values API Gateway surely compresses for: the reference page's assets go only there. */
import { describe, expect, it } from 'vitest';
import { gatewayCompresses } from '#lib/http/content-coding.ts';

describe('gatewayCompresses', () => {
  it.each([
    ['gzip', true],
    ['deflate', true],
    ['gzip, deflate, br, zstd', true],
    ['br;q=0.5, gzip', true],
    ['identity;q=0.1, deflate;q=0.9', true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br', false],
    ['br, gzip', false],
    ['gzip;q=0.5, br', false],
    ['*', false],
    ['gzip;q=0, deflate;q=0', false],
  ])('Accept-Encoding %j → %s', (accept, expected) => {
    expect(gatewayCompresses(accept)).toBe(expected);
  });
});
