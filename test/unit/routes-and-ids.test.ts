import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { functionIds, operations } from '#lib/operations.ts';
import { generatePetId, ID_EPOCH_MS } from '#lib/store/ids.ts';

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
