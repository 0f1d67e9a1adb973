import { describe, expect, it } from 'vitest';
import { allowedMethods, routes } from '#lib/routes.ts';
import { generatePetId, ID_EPOCH_MS } from '#lib/store/ids.ts';

describe('route table', () => {
  it('names the three operations of the spec', () => {
    expect(routes.map((r) => `${r.method} ${r.resource} ${r.operationId}`)).toEqual([
      'GET /pets listPets',
      'POST /pets createPet',
      'GET /pets/{petId} getPet',
    ]);
    expect(allowedMethods('/pets')).toEqual(['GET', 'POST']);
    expect(allowedMethods('/pets/{petId}')).toEqual(['GET']);
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
