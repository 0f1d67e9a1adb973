import { describe, expect, it } from 'vitest';
import {
  type ApiKeyRecord,
  checkLabel,
  escapeControlCharacters,
  generateApiKey,
  hashApiKey,
  isUsable,
  isWellFormedApiKey,
  keyIdFromHash,
  newApiKeyRecord,
  parseDuration,
} from '#lib/auth/api-keys.ts';
import { KeyVerifier, MAX_CACHE_ENTRIES } from '#lib/auth/key-verifier.ts';
import { readConfig } from '#lib/config.ts';

describe('API keys', () => {
  it('are prefixed, 192-bit random and well-formed', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) {
      expect(key).toMatch(/^psk_[A-Za-z0-9_-]{32}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(
      ['', 'psk_', 'Bearer x', `psk_${'a'.repeat(31)}`, `psk_${'a'.repeat(33)}`, `sk_${'a'.repeat(32)}`].some(isWellFormedApiKey),
    ).toBe(false);
  });

  it('are stored as their SHA-256 hash only', () => {
    const key = 'psk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    // sha256sum of the same bytes, computed outside Node
    expect(hashApiKey(key)).toBe('7b4b2add9e4231d91c803ccb026840f1131b21036d66ae77237cbd230b6446af');
    const record = newApiKeyRecord(key, 'ci', { now: new Date('2026-01-02T03:04:05Z') });
    expect(record).toEqual({
      keyHash: hashApiKey(key),
      keyId: keyIdFromHash(hashApiKey(key)),
      label: 'ci',
      createdAt: '2026-01-02T03:04:05.000Z',
    });
    expect(JSON.stringify(record)).not.toContain(key);
  });

  it('stop being usable when revoked or expired', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const base = newApiKeyRecord(generateApiKey(), 'x', { now: new Date('2026-01-01T00:00:00Z') });
    expect(isUsable(base, now)).toBe(true);
    expect(isUsable({ ...base, expiresAt: '2026-06-01T00:00:01.000Z' }, now)).toBe(true);
    expect(isUsable({ ...base, expiresAt: '2026-06-01T00:00:00.000Z' }, now)).toBe(false);
    expect(isUsable({ ...base, revokedAt: '2026-05-01T00:00:00.000Z' }, now)).toBe(false);
  });

  it('parse expiry durations', () => {
    expect(parseDuration('30d')).toBe(30 * 86_400_000);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(() => parseDuration('0d')).toThrow(/longer than zero/);
    expect(() => parseDuration('1 week')).toThrow(/Invalid duration/);
    // Bounded: an absurd lifetime is a typo, and past ~275,000 years the expiry is not a date at all.
    expect(parseDuration('3650d')).toBe(3650 * 86_400_000);
    expect(() => parseDuration('3651d')).toThrow(/at most 3650d/);
    expect(() => parseDuration('999999999999d')).toThrow(/at most 3650d/);
  });

  it('have one-line labels', () => {
    expect(checkLabel('  ci runner ')).toBe('ci runner');
    for (const bad of ['a\nb', 'a\rb', 'tab\there', 'bell\u0007', 'del\u007f', 'c1\u0085x', 'l\u2028s']) {
      expect(() => checkLabel(bad), JSON.stringify(bad)).toThrow(/control character/);
    }
    expect(() => checkLabel('   ')).toThrow(/empty/);
    expect(() => checkLabel('x'.repeat(101))).toThrow(/at most 100/);
    expect(escapeControlCharacters('evil\nline\u2028')).toBe('evil\\u000aline\\u2028');
  });
});

describe('KeyVerifier', () => {
  function fixture(records: ApiKeyRecord[]) {
    let now = Date.parse('2026-06-01T00:00:00Z');
    const lookups: string[] = [];
    const byHash = new Map(records.map((r) => [r.keyHash, r]));
    const verifier = new KeyVerifier(
      {
        findByHash: async (hash) => {
          lookups.push(hash);
          return byHash.get(hash);
        },
      },
      { cacheMs: 60_000, now: () => now },
    );
    return { verifier, lookups, byHash, advance: (ms: number) => (now += ms) };
  }

  it('accepts a known key and caches the lookup for at most 60 s', async () => {
    const key = generateApiKey();
    const record = newApiKeyRecord(key, 'a');
    const { verifier, lookups, byHash, advance } = fixture([record]);
    expect(await verifier.verify(key)).toBeDefined();
    expect(await verifier.verify(key)).toBeDefined();
    expect(lookups).toHaveLength(1);

    byHash.set(record.keyHash, { ...record, revokedAt: new Date().toISOString() });
    advance(59_999);
    expect(await verifier.verify(key)).toBeDefined(); // still cached
    advance(1);
    expect(await verifier.verify(key)).toBeUndefined(); // revocation seen within 60 s
    expect(lookups).toHaveLength(2);
  });

  it('refuses malformed tokens without a lookup, and unknown keys after one', async () => {
    const { verifier, lookups } = fixture([]);
    expect(await verifier.verify('not-a-key')).toBeUndefined();
    expect(lookups).toHaveLength(0);
    expect(await verifier.verify(generateApiKey())).toBeUndefined();
    expect(lookups).toHaveLength(1);
  });

  it('applies expiry against the current time even while cached', async () => {
    const key = generateApiKey();
    const { verifier, advance } = fixture([newApiKeyRecord(key, 'a', { expiresAt: new Date('2026-06-01T00:00:30Z') })]);
    expect(await verifier.verify(key)).toBeDefined();
    advance(30_000);
    expect(await verifier.verify(key)).toBeUndefined();
  });

  it('keeps at most MAX_CACHE_ENTRIES known keys, forgetting the least recently looked up first', async () => {
    const keys = Array.from({ length: MAX_CACHE_ENTRIES + 1 }, () => generateApiKey());
    const { verifier, lookups } = fixture(keys.map((key) => newApiKeyRecord(key, 'a')));
    for (const key of keys) expect(await verifier.verify(key)).toBeDefined();
    expect(await verifier.verify(keys.at(-1) as string)).toBeDefined();
    expect(lookups).toHaveLength(MAX_CACHE_ENTRIES + 1);
    expect(await verifier.verify(keys[0] as string)).toBeDefined();
    expect(lookups).toHaveLength(MAX_CACHE_ENTRIES + 2); // evicted, so looked up again
  });

  it('caches unknown keys apart: a flood of made-up keys never evicts a real one, and is bounded itself', async () => {
    const key = generateApiKey();
    const { verifier, lookups } = fixture([newApiKeyRecord(key, 'a')]);
    await verifier.verify(key);
    const first = generateApiKey();
    await verifier.verify(first);
    for (let i = 0; i < 2 * MAX_CACHE_ENTRIES; i++) expect(await verifier.verify(generateApiKey())).toBeUndefined();
    expect(lookups).toHaveLength(2 + 2 * MAX_CACHE_ENTRIES);
    // The real key is still cached: no lookup.
    expect(await verifier.verify(key)).toBeDefined();
    expect(lookups).toHaveLength(2 + 2 * MAX_CACHE_ENTRIES);
    // The made-up keys kept only the latest MAX_CACHE_ENTRIES: the first was forgotten, the last is remembered.
    await verifier.verify(first);
    expect(lookups).toHaveLength(3 + 2 * MAX_CACHE_ENTRIES);
    await verifier.verify(first);
    expect(lookups).toHaveLength(3 + 2 * MAX_CACHE_ENTRIES);
  });

  it('moves a key between the two caches when the store starts or stops holding it', async () => {
    const key = generateApiKey();
    const record = newApiKeyRecord(key, 'a');
    const { verifier, byHash, advance } = fixture([]);
    expect(await verifier.verify(key)).toBeUndefined();
    byHash.set(record.keyHash, record);
    advance(60_000);
    expect(await verifier.verify(key)).toBeDefined();
    // Now a known key: a flood of unknown ones leaves it cached.
    for (let i = 0; i < MAX_CACHE_ENTRIES; i++) await verifier.verify(generateApiKey());
    byHash.delete(record.keyHash);
    expect(await verifier.verify(key)).toBeDefined(); // cached, not looked up again within the minute
    advance(60_000);
    expect(await verifier.verify(key)).toBeUndefined();
  });

  it('lets a failed lookup propagate instead of answering "invalid"', async () => {
    const verifier = new KeyVerifier({ findByHash: async () => Promise.reject(new Error('store down')) }, { cacheMs: 1000 });
    await expect(verifier.verify(generateApiKey())).rejects.toThrow('store down');
  });
});

describe('API_KEY_CACHE_SECONDS', () => {
  const cacheMs = (value?: string) =>
    readConfig({ PETS_TABLE_NAME: 'p', API_KEYS_TABLE_NAME: 'k', ...(value === undefined ? {} : { API_KEY_CACHE_SECONDS: value }) })
      .keyCacheMs;

  it('is capped at 60 s, so a revoked key stops working within a minute whatever the setting', () => {
    expect(cacheMs()).toBe(60_000);
    expect(cacheMs('5')).toBe(5_000);
    expect(cacheMs('0')).toBe(0);
    expect(cacheMs('3600')).toBe(60_000);
    for (const nonsense of ['-1', 'abc', 'Infinity']) expect(cacheMs(nonsense), nonsense).toBe(60_000);
  });
});
