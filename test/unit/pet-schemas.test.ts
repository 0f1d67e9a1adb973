import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, NewPet } from '#lib/domain/pet.ts';
import { integerText, ListPetsQuery, PetIdPath } from '#lib/domain/requests.ts';
import { validate } from '#lib/http/validate.ts';
import { thrownHttpError } from '../support/http-error.ts';

describe('NewPet', () => {
  it('accepts the minimal and the full pet, keeping the name as sent', () => {
    expect(validate(NewPet, { name: ' Rex ', categoryId: 1 }, 'request body')).toEqual({ name: ' Rex ', categoryId: 1 });
    expect(validate(NewPet, { name: 'Rex', categoryId: Number.MAX_SAFE_INTEGER, status: 'sold' }, 'request body')).toEqual({
      name: 'Rex',
      categoryId: Number.MAX_SAFE_INTEGER,
      status: 'sold',
    });
    expect(validate(NewPet, { name: 'x'.repeat(MAX_NAME_LENGTH), categoryId: 1 }, 'request body').name).toHaveLength(200);
  });

  it.each([
    [{ categoryId: 1 }, 'name is required'],
    [{ name: 'Rex' }, 'categoryId is required'],
    [{ name: '', categoryId: 1 }, 'name must be text a person can read'],
    [{ name: ' \t ', categoryId: 1 }, 'name must be text a person can read'],
    [{ name: '\u001b[31mred\r\nX-Injected: 1', categoryId: 1 }, 'no control character'],
    [{ name: 'A\u0000B', categoryId: 1 }, 'no control character'],
    [{ name: '\u202egnp.exe', categoryId: 1 }, 'bidirectional override'],
    [{ name: '\u200b\u200b', categoryId: 1 }, 'at least one visible character'],
    [{ name: 'Rex\ud800', categoryId: 1 }, 'lone surrogate'],
    [{ name: 'x'.repeat(201), categoryId: 1 }, 'name must be at most 200 characters'],
    [{ name: 42, categoryId: 1 }, 'name must be a string'],
    [{ name: 'Rex', categoryId: '1' }, 'categoryId must be a category id'],
    [{ name: 'Rex', categoryId: 1.5 }, 'categoryId must be a category id'],
    [{ name: 'Rex', categoryId: 0 }, 'categoryId must be a category id'],
    [{ name: 'Rex', categoryId: -3 }, 'categoryId must be a category id'],
    [{ name: 'Rex', categoryId: 2 ** 53 }, 'categoryId must be a category id'],
    [{ name: 'Rex', categoryId: 1, status: 'lost' }, 'status must be one of available, pending, sold'],
    [{ name: 'Rex', categoryId: 1, id: 7 }, 'unknown field "id" (allowed: name, categoryId, status)'],
    [{ name: 'Rex', categoryId: 1, color: 'red', size: 2 }, 'unknown fields "color", "size"'],
  ])('rejects %j with a message naming the problem', (body, fragment) => {
    const error = thrownHttpError(() => validate(NewPet, body, 'request body'));
    expect(error.toBody()).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(error.message).toContain(fragment);
  });

  it('stores a name in NFC, and counts its length there', () => {
    expect(validate(NewPet, { name: 'Ame\u0301lie', categoryId: 1 }, 'request body').name).toBe('Am\u00e9lie');
    expect(validate(NewPet, { name: 'Rex\u200e', categoryId: 1 }, 'request body').name).toBe('Rex\u200e');
    expect(thrownHttpError(() => validate(NewPet, { name: '\u0958'.repeat(200), categoryId: 1 }, 'request body')).message).toContain(
      'at most 200',
    );
  });
});

describe('query and path parameters', () => {
  it('defaults limit to 20 and converts only canonical integers', () => {
    expect(validate(ListPetsQuery, {}, 'query parameter')).toEqual({ limit: 20 });
    expect(validate(ListPetsQuery, { limit: integerText('100'), status: 'pending' }, 'query parameter')).toEqual({
      limit: 100,
      status: 'pending',
    });
    expect(['1.5', '-1', 'abc', '', '0x10', '1e1', '+5', '01'].map(integerText)).toEqual([
      '1.5',
      '-1',
      'abc',
      '',
      '0x10',
      '1e1',
      '+5',
      '01',
    ]);
  });

  it.each(['0', '101', '-1', '1.5', 'abc', ''])('rejects limit=%j', (limit) => {
    const error = thrownHttpError(() => validate(ListPetsQuery, { limit: integerText(limit) }, 'query parameter'));
    expect(error.message).toBe('Invalid query parameter: limit must be an integer from 1 to 100.');
  });

  it('rejects unknown query parameters by name', () => {
    expect(thrownHttpError(() => validate(ListPetsQuery, { stauts: 'sold' }, 'query parameter')).message).toContain(
      'unknown query parameter "stauts"',
    );
  });

  it.each(['0', '-1', 'abc', '007', '1.5', '9007199254740992'])('rejects petId=%j, saying so once', (petId) => {
    const error = thrownHttpError(() => validate(PetIdPath, { petId: integerText(petId) }, 'path parameter'));
    expect(error.status).toBe(400);
    expect(error.message.match(/petId must be/g)).toHaveLength(1);
  });
});
