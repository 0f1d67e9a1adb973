/** `POST /v1/pets` (createPet) end to end: the 201 and every 400/413/415 of the body rules. */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import {
  createPet,
  expectError,
  expectJson,
  expectJsonContentType,
  expectPet,
  expectRequestId,
  type Pet,
  postJson,
  walkPages,
} from './helpers.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

/** POST /pets with a raw body and exactly the headers given (plus the key). */
function postRaw(body: string | Uint8Array | undefined, headers: Record<string, string> = {}): Promise<Response> {
  return api.request('/pets', {
    method: 'POST',
    headers,
    // A Uint8Array body makes fetch send no Content-Type of its own.
    ...(body === undefined ? {} : { body: typeof body === 'string' ? new TextEncoder().encode(body) : body }),
  });
}

describe('createPet: 201', () => {
  it('answers 201 with the Pet, its assigned id and a Location header of /v1/pets/<id>', async () => {
    const res = await postJson(api, { name: 'Rex', categoryId: 3, status: 'available' });
    const pet = expectPet(await expectJson(res, 201));
    expect(pet).toEqual({ id: pet.id, name: 'Rex', categoryId: 3, status: 'available' });
    expect(Number.isSafeInteger(pet.id) && pet.id > 0).toBe(true);
    const location = res.headers.get('location');
    expect(location).toBeTruthy();
    expect(location as string).toMatch(new RegExp(`/v1/pets/${pet.id}$`));
    // The Location is where the pet can be read.
    const read = await fetch(new URL(location as string, api.url), { headers: { authorization: `Bearer ${api.apiKey}` } });
    expect(await expectJson(read, 200)).toEqual(pet);
  });

  it('carries no Deprecation or Sunset header', async () => {
    const res = await postJson(api, { name: 'Plain', categoryId: 1 });
    expect(res.status).toBe(201);
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
    await res.body?.cancel();
  });

  it('assigns a new id on every create, even for identical bodies', async () => {
    const a = await createPet(api, { name: 'Twin', categoryId: 1 });
    const b = await createPet(api, { name: 'Twin', categoryId: 1 });
    expect(a.id).not.toBe(b.id);
  });

  it.each(['available', 'pending', 'sold'] as const)('accepts status %s and returns it', async (status) => {
    const pet = await createPet(api, { name: `S-${status}`, categoryId: 2, status });
    expect(pet.status).toBe(status);
  });

  it('accepts Content-Type: application/json; charset=utf-8', async () => {
    const res = await postRaw(JSON.stringify({ name: 'Charset', categoryId: 1 }), { 'content-type': 'application/json; charset=utf-8' });
    expect(expectPet(await expectJson(res, 201))).toMatchObject({ name: 'Charset', categoryId: 1 });
  });
});

describe('createPet: name', () => {
  it('stores and returns the name as sent, surrounding spaces and unicode included', async () => {
    const name = '  Señor 🐶 Rex – 名前\u00a0 ';
    const created = await createPet(api, { name, categoryId: 1, status: 'pending' });
    expect(created.name).toBe(name);
    const read = await expectJson<Pet>(await api.request(`/pets/${created.id}`), 200);
    expect(read.name).toBe(name);
    const listed = (await walkPages(api, '/pets?status=pending&limit=100')).pets.find((p) => p.id === created.id);
    expect(listed?.name).toBe(name);
  });

  it('accepts a name of 200 characters', async () => {
    expect((await createPet(api, { name: 'x'.repeat(200), categoryId: 1 })).name).toBe('x'.repeat(200));
    // Characters, not bytes: 200 two-byte characters are fine too.
    expect((await createPet(api, { name: 'ä'.repeat(200), categoryId: 1 })).name).toBe('ä'.repeat(200));
  });

  it('refuses a name of 201 characters with 400 naming the field and the limit', async () => {
    await expectError(await postJson(api, { name: 'x'.repeat(201), categoryId: 1 }), 400, 'validation_failed', ['name', '200']);
  });

  it('counts characters, not UTF-16 units: 200 emoji are fine, 201 are not', async () => {
    expect((await createPet(api, { name: '🐶'.repeat(200), categoryId: 1 })).name).toBe('🐶'.repeat(200));
    await expectError(await postJson(api, { name: '🐶'.repeat(201), categoryId: 1 }), 400, 'validation_failed', ['name', '200']);
  });

  it.each([
    ['only white space', '   '],
    ['only tabs and newlines', '\t\n\r '],
    ['only unicode white space', '\u00a0\u2003\u3000'],
    ['empty', ''],
    ['a number', 42],
    ['null', null],
    ['an array', ['Rex']],
    ['an object', { first: 'Rex' }],
  ])('refuses a name that is %s with 400 naming the field', async (_, name) => {
    await expectError(await postJson(api, { name, categoryId: 1 }), 400, 'validation_failed', ['name']);
  });

  it('refuses a missing name with 400 naming the field', async () => {
    await expectError(await postJson(api, { categoryId: 1 }), 400, 'validation_failed', ['name']);
  });

  it.each([
    ['a lone high surrogate', '{"name":"Rex \\ud800","categoryId":1}'],
    ['a lone low surrogate', '{"name":"\\udc36 Rex","categoryId":1}'],
    ['a pair in the wrong order', '{"name":"\\udc36\\ud83d","categoryId":1}'],
  ])('refuses a name with %s, which JSON escapes allow but is no character, with 400 naming the field', async (_, body) => {
    await expectError(await postRaw(body, { 'content-type': 'application/json' }), 400, 'validation_failed', ['name', 'lone surrogate']);
  });

  it.each([
    ['ANSI escapes and a line break', '\u001b[31mred\r\nX-Injected: 1'],
    ['NUL', 'A\u0000B'],
    ['a C1 control', 'A\u0085B'],
    ['a right-to-left override', '\u202egnp.exe'],
    ['a bidirectional isolate', 'Rex\u2067x\u2069'],
    ['only zero-width characters', '\u200b\u200b'],
    ['only format characters', '\u200d\u2060\ufeff\u200e'],
  ])('refuses a name with %s, as text no person can read, with 400 naming the field and the rule', async (_, name) => {
    await expectError(await postJson(api, { name, categoryId: 1 }), 400, 'validation_failed', ['name', 'text a person can read']);
  });

  it('stores a name in NFC: its NFD spelling is the same name, and counts as NFC for the length', async () => {
    const [nfd, nfc] = ['Ame\u0301lie', 'Am\u00e9lie'];
    expect((await createPet(api, { name: nfd, categoryId: 1 })).name).toBe(nfc);
    const key = crypto.randomUUID();
    const first = await postJson(api, { name: nfc, categoryId: 1 }, { headers: { 'Idempotency-Key': key } });
    const again = await postJson(api, { name: nfd, categoryId: 1 }, { headers: { 'Idempotency-Key': key } });
    expect((await expectJson<Pet>(again, 201)).id).toBe((await expectJson<Pet>(first, 201)).id);
    // U+0958 has no NFC of its own: it becomes two characters, so 200 of them are 400.
    await expectError(await postJson(api, { name: '\u0958'.repeat(200), categoryId: 1 }), 400, 'validation_failed', ['name', '200']);
  });

  it('accepts a character written as an escaped surrogate pair, and returns the character', async () => {
    const res = await postRaw('{"name":"\\ud83d\\udc36 Rex","categoryId":1}', { 'content-type': 'application/json' });
    expect((await expectJson<Pet>(res, 201)).name).toBe('🐶 Rex');
  });
});

describe('createPet: categoryId', () => {
  it('accepts 1 and 2^53-1', async () => {
    expect((await createPet(api, { name: 'Low', categoryId: 1 })).categoryId).toBe(1);
    const high = await createPet(api, { name: 'High', categoryId: 9007199254740991 });
    expect(high.categoryId).toBe(9007199254740991);
    expect((await expectJson<Pet>(await api.request(`/pets/${high.id}`), 200)).categoryId).toBe(9007199254740991);
  });

  it.each([
    ['the string "1"', '1'],
    ['1.5', 1.5],
    ['0', 0],
    ['-1', -1],
    ['2^53', 9007199254740992],
    ['null', null],
    ['true', true],
  ])('refuses categoryId %s with 400 naming the field', async (_, categoryId) => {
    await expectError(await postJson(api, { name: 'Rex', categoryId }), 400, 'validation_failed', ['categoryId']);
  });

  it('refuses 2^53 written literally in the JSON text', async () => {
    const res = await postRaw('{"name":"Rex","categoryId":9007199254740992}', { 'content-type': 'application/json' });
    await expectError(res, 400, 'validation_failed', ['categoryId']);
  });

  it('refuses a missing categoryId with 400 naming the field', async () => {
    await expectError(await postJson(api, { name: 'Rex' }), 400, 'validation_failed', ['categoryId']);
  });
});

describe('createPet: status', () => {
  it.each([
    ['lost', 'lost'],
    ['AVAILABLE', 'AVAILABLE'],
    ['an empty string', ''],
    ['null', null],
    ['a number', 1],
  ])('refuses status %s with 400 naming the field', async (_, status) => {
    await expectError(await postJson(api, { name: 'Rex', categoryId: 1, status }), 400, 'validation_failed', ['status']);
  });

  it('keeps an omitted status omitted: on create, on read, and in listings only without a filter', async () => {
    const res = await postJson(api, { name: 'NoStatus', categoryId: 7 });
    const created = expectPet(await expectJson(res, 201));
    expect(created).not.toHaveProperty('status');
    expect(Object.keys(created).sort()).toEqual(['categoryId', 'id', 'name']);

    const read = await expectJson<Record<string, unknown>>(await api.request(`/pets/${created.id}`), 200);
    expect(read).toEqual({ id: created.id, name: 'NoStatus', categoryId: 7 });
    expect('status' in read).toBe(false);

    for (const status of ['available', 'pending', 'sold']) {
      const { pets } = await walkPages(api, `/pets?status=${status}&limit=100`);
      expect(pets.map((p) => p.id)).not.toContain(created.id);
      for (const pet of pets) expect(pet.status).toBe(status);
    }
    const listed = (await walkPages(api, '/pets?limit=100')).pets.find((p) => p.id === created.id);
    expect(listed).toEqual({ id: created.id, name: 'NoStatus', categoryId: 7 });
    expect('status' in (listed as object)).toBe(false);
  });
});

describe('createPet: unknown fields', () => {
  it('refuses an id sent by the client with 400 naming the field', async () => {
    const body = await expectError(await postJson(api, { id: 12, name: 'Rex', categoryId: 1 }), 400, 'validation_failed', [/\bid\b/]);
    expect(body.message).toMatch(/unknown|not allowed|unexpected|unrecognized/i);
  });

  it('refuses any other unknown field with 400 naming it', async () => {
    await expectError(await postJson(api, { name: 'Rex', categoryId: 1, colour: 'brown' }), 400, 'validation_failed', ['colour']);
  });

  it.each(['__proto__', 'constructor', 'toString', 'ID', 'Name'])('refuses the unknown field %s with 400 naming it', async (field) => {
    const res = await postRaw(`{"name":"Rex","categoryId":1,${JSON.stringify(field)}:{"x":1}}`, { 'content-type': 'application/json' });
    await expectError(res, 400, 'validation_failed', [field]);
  });

  it('names every offending field at once', async () => {
    await expectError(await postJson(api, { name: '', categoryId: 0, status: 'lost' }), 400, 'validation_failed', [
      'name',
      'categoryId',
      'status',
    ]);
  });
});

describe('createPet: the body itself', () => {
  it('refuses a missing body with 400', async () => {
    await expectError(await postRaw(undefined, { 'content-type': 'application/json' }), 400, 'validation_failed', [/body/i]);
  });

  it('refuses a missing body without Content-Type with 400', async () => {
    await expectError(await postRaw(undefined), 400, 'validation_failed', [/body/i]);
  });

  it('refuses an empty body with 400', async () => {
    await expectError(await postRaw('', { 'content-type': 'application/json' }), 400, 'validation_failed', [/body/i]);
  });

  it.each([
    ['truncated JSON', '{"name":"Rex",'],
    ['plain text', 'name=Rex'],
    ['single quotes', "{'name':'Rex','categoryId':1}"],
    ['a trailing comma', '{"name":"Rex","categoryId":1,}'],
  ])('refuses a body that is not JSON (%s) with 400', async (_, text) => {
    await expectError(await postRaw(text, { 'content-type': 'application/json' }), 400, 'validation_failed', [/JSON/]);
  });

  it.each([
    ['an array', '[{"name":"Rex","categoryId":1}]'],
    ['a string', '"Rex"'],
    ['null', 'null'],
    ['a number', '42'],
    ['true', 'true'],
  ])('refuses JSON that is not an object (%s) with 400', async (_, text) => {
    await expectError(await postRaw(text, { 'content-type': 'application/json' }), 400, 'validation_failed', [/object/i]);
  });
});

describe('createPet: Content-Type', () => {
  const body = JSON.stringify({ name: 'Rex', categoryId: 1 });

  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['application/xml', 'application/xml'],
  ])('refuses Content-Type %s with 415', async (_, contentType) => {
    await expectError(await postRaw(body, { 'content-type': contentType }), 415, 'unsupported_media_type', ['application/json']);
  });

  it('refuses a body without Content-Type with 415', async () => {
    await expectError(await postRaw(body), 415, 'unsupported_media_type', ['application/json']);
  });

  it('refuses what fetch sends for a string body by default (text/plain) with 415', async () => {
    const res = await api.request('/pets', { method: 'POST', body });
    await expectError(res, 415, 'unsupported_media_type', ['application/json']);
  });

  it.each(['gzip', 'deflate', 'br'])('refuses a body sent with Content-Encoding %s with 415 naming the encoding', async (encoding) => {
    const compressed = encoding === 'gzip' ? gzipSync(body) : encoding === 'deflate' ? deflateSync(body) : brotliCompressSync(body);
    const res = await postRaw(compressed, { 'content-type': 'application/json', 'content-encoding': encoding });
    await expectError(res, 415, 'unsupported_media_type', [`Content-Encoding "${encoding}"`, 'uncompressed']);
  });

  it('accepts Content-Encoding: identity, which is no encoding', async () => {
    const res = await postRaw(body, { 'content-type': 'application/json', 'content-encoding': 'identity' });
    expect(res.status).toBe(201);
    await res.body?.cancel();
  });

  it('stores nothing for a refused request', async () => {
    const name = 'Refused-415-marker';
    await expectError(
      await postRaw(JSON.stringify({ name, categoryId: 1 }), { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
    const { pets } = await walkPages(api, '/pets?limit=100');
    expect(pets.map((p) => p.name)).not.toContain(name);
  });
});

describe('createPet: body size', () => {
  /** A valid NewPet padded with trailing white space to exactly `size` bytes. */
  const padded = (size: number): string => {
    const json = JSON.stringify({ name: 'Big', categoryId: 1 });
    return json + ' '.repeat(size - Buffer.byteLength(json));
  };

  it('accepts a body of exactly 64 KiB (65536 bytes)', async () => {
    const body = padded(65_536);
    expect(Buffer.byteLength(body)).toBe(65_536);
    const res = await postRaw(body, { 'content-type': 'application/json' });
    expect(expectPet(await expectJson(res, 201))).toMatchObject({ name: 'Big', categoryId: 1 });
  });

  it('refuses a body of 65537 bytes with 413 naming the limit', async () => {
    const body = padded(65_537);
    expect(Buffer.byteLength(body)).toBe(65_537);
    await expectError(await postRaw(body, { 'content-type': 'application/json' }), 413, 'payload_too_large', [/65536|64 ?KiB/]);
  });

  it('refuses a 1 MiB body with 413', async () => {
    await expectError(await postRaw(padded(1024 * 1024), { 'content-type': 'application/json' }), 413, 'payload_too_large');
  });
});

describe('createPet: response headers', () => {
  it('answers with application/json and an X-Request-Id on success and on error', async () => {
    const ok = await postJson(api, { name: 'Hdr', categoryId: 1 });
    expect(ok.status).toBe(201);
    expectJsonContentType(ok);
    expectRequestId(ok);
    await ok.body?.cancel();
    const bad = await postJson(api, { name: 'Hdr' });
    await expectError(bad, 400, 'validation_failed');
    expect(bad.headers.get('location')).toBeNull();
  });
});
