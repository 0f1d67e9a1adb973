import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { functionIds, operations } from '#lib/operations.ts';
import { generatePetId, ID_EPOCH_MS, ID_RANDOM_BITS } from '#lib/store/ids.ts';
import { statusOrder } from '#lib/store/tables.ts';

describe('operation descriptors', () => {
  const unique = (values: readonly string[]) => new Set(values).size === values.length;

  it('give each operation its own route, operationId and function module under functions/', () => {
    expect(unique(operations.map((o) => `${o.method} ${o.resource}`))).toBe(true);
    expect(unique(operations.map((o) => o.operationId))).toBe(true);
    expect(unique(functionIds)).toBe(true);
    for (const id of functionIds) expect(existsSync(new URL(`../../functions/${id}.ts`, import.meta.url)), id).toBe(true);
  });
});

describe('pet ids', () => {
  it('are positive safe integers, ordered by time', () => {
    const early = generatePetId(ID_EPOCH_MS + 1_000);
    const late = generatePetId(ID_EPOCH_MS + 2_000);
    expect(early).toBeGreaterThan(0);
    expect(late).toBeGreaterThan(early);
    const far = generatePetId(ID_EPOCH_MS + 2 ** 41 - 1);
    expect(Number.isSafeInteger(far)).toBe(true);
  });

  it('refuse a clock outside their range rather than overflow', () => {
    expect(() => generatePetId(ID_EPOCH_MS - 1)).toThrow(/Clock outside/);
    expect(() => generatePetId(ID_EPOCH_MS + 2 ** 41)).toThrow(/Clock outside/);
  });

  it('spread within one millisecond', () => {
    const ids = new Set(Array.from({ length: 100 }, () => generatePetId(ID_EPOCH_MS + 5)));
    expect(ids.size).toBeGreaterThan(90);
  });
});

describe('statusOrder, the byStatus sort key', () => {
  /** The inverse: the id's random low bits come back from the top. */
  const idOf = (order: number): number => (order % 2 ** 41) * 2 ** ID_RANDOM_BITS + Math.floor(order / 2 ** 41);

  it("moves the id's 12 random low bits to the top, exactly, up to the largest safe integer", () => {
    expect(statusOrder(1)).toBe(2 ** 41);
    expect(statusOrder(4096)).toBe(1);
    expect(statusOrder(4095)).toBe(4095 * 2 ** 41);
    expect(statusOrder(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    for (const id of [1, 4095, 4096, 4097, generatePetId(), generatePetId(ID_EPOCH_MS + 2 ** 41 - 1), Number.MAX_SAFE_INTEGER - 1]) {
      expect(Number.isSafeInteger(statusOrder(id))).toBe(true);
      expect(idOf(statusOrder(id))).toBe(id);
    }
  });

  it('is one-to-one, so each pet has its own place in a listing', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => generatePetId(ID_EPOCH_MS + Math.floor(i / 7)));
    const distinct = new Set(ids);
    expect(new Set([...distinct].map(statusOrder)).size).toBe(distinct.size);
  });

  it('puts ids created one after another all over the range, not at its end', () => {
    const orders = Array.from({ length: 4_000 }, (_, i) => statusOrder(generatePetId(ID_EPOCH_MS + 1_000 + i)));
    // 4,000 creates over 16 slices of the range: 250 each expected (σ ≈ 15); none empty or doubled.
    const slices = Array.from({ length: 16 }, () => 0);
    for (const order of orders) {
      const slice = Math.floor(order / 2 ** 49);
      slices[slice] = (slices[slice] ?? 0) + 1;
    }
    for (const count of slices) {
      expect(count).toBeGreaterThan(125);
      expect(count).toBeLessThan(500);
    }
  });
});
